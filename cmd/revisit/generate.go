package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the generate implementation.
func newGenerateCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "generate",
		Short: "generate (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("generate: not implemented yet")
		},
	}
}
