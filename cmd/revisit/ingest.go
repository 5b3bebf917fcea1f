package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the ingest implementation.
func newIngestCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "ingest",
		Short: "ingest (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("ingest: not implemented yet")
		},
	}
}
