//go:build !unix

package files

import "io/fs"

// umask: no umask here; the usual one.
func umask() fs.FileMode { return 0o022 }

// syscallAccessW: no access(2) here; the open will tell.
func syscallAccessW(string) error { return nil }
