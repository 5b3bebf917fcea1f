package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the simulate implementation.
func newSimulateCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "simulate",
		Short: "simulate (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("simulate: not implemented yet")
		},
	}
}
