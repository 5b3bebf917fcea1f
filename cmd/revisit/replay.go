package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(scaffold): replaced by the replay implementation.
func newReplayCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "replay",
		Short: "replay (not implemented yet)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("replay: not implemented yet")
		},
	}
}
