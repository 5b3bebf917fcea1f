package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the analyze implementation.
func newAnalyzeCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "analyze",
		Short: "analyze (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("analyze: not implemented yet")
		},
	}
}
