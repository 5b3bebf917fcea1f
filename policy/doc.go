// Package policy replays download policies under a budget, SPEC §4.5: pages
// grouped into sites, time cut into download cycles, R downloads per cycle,
// and the ChangeRatio (changed pages downloaded / pages downloaded) of
// round-robin, change-frequency, sampling-based (proportional, greedy,
// adaptive, subset) policies and the oracle, on real or generated update
// series.
//
// It is not a crawler of single pages (replay's samplers and estimators are)
// and it does not model download cost beyond one unit per page.
//
// Command is 'revisit policies': its flags' text checked and parsed
// (CommandOptions.Validate), the dataset read, Run, the tables printed
// (PrintTables) and written for revisit report.
package policy
