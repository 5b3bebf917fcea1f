package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the report implementation.
func newReportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "report",
		Short: "report (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("report: not implemented yet")
		},
	}
}
