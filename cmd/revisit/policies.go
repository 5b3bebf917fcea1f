package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the policies implementation.
func newPoliciesCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "policies",
		Short: "policies (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("policies: not implemented yet")
		},
	}
}
