//go:build !unix

package files

import (
	"errors"
	"io/fs"
	"os"
)

// umask: no umask here; the usual one.
func umask() fs.FileMode { return 0o022 }

// syscallAccessW: no access(2) here; the open will tell.
func syscallAccessW(string) error { return nil }

// flock: no flock here; the swap runs unlocked, as before.
func flock(*os.File, bool) error { return errors.ErrUnsupported }
