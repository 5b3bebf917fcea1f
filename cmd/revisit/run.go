package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the run implementation.
func newRunCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "run",
		Short: "run (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("run: not implemented yet")
		},
	}
}
