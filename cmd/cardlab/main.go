// Command cardlab is a toolkit for card-game designers: edit card values in
// YAML, check them, and (soon) simulate games and report balance.
//
// Run `cardlab --help` for the commands. Exit codes: 0 success, 1 a user
// error (an invalid ruleset, an unknown faction, files in the way), 2 a usage
// error (unknown command or flag, wrong number of arguments).
package main

import "os"

func main() {
	os.Exit(Main())
}

// Main runs cardlab with the process's arguments and standard streams and
// returns the exit code.
func Main() int {
	return run(os.Args[1:], os.Stdout, os.Stderr)
}
