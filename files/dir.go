package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// CheckDir reports whether dir can receive the files names through
// ReplaceDir, without changing anything: dir is missing (and its parent is
// a folder we can write in) or a folder we can write in whose entries of
// those names are regular files of ours or absent. A name may lie in a
// subfolder ("tts/klingon.json"); the folders on its way must be folders.
func CheckDir(dir string, names []string) error {
	dir = filepath.Clean(dir)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(dir)
		ps, err := os.Stat(parent)
		if err != nil || !ps.IsDir() {
			return fmt.Errorf("%s: the folder %s does not exist", dir, parent)
		}
		return checkWritableDir(parent, dir)
	case err != nil:
		return fmt.Errorf("%s: %v", dir, pathErr(err))
	case !st.IsDir():
		return fmt.Errorf("%s exists and is not a folder", dir)
	}
	seen := map[string]bool{}
	for _, n := range names {
		for d := filepath.Dir(filepath.FromSlash(n)); d != "." && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			p := filepath.Join(dir, d)
			if st, err := os.Lstat(p); err == nil && !st.IsDir() {
				return fmt.Errorf("%s is %s in the way of cardlab's folder %s: move it away first", p, describeMode(st.Mode()), d)
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(n))
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %v", p, pathErr(err))
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is %s, not a file cardlab wrote: move it away first", p, describeMode(st.Mode()))
		}
		if uid, ok := owner(st); ok && uid != os.Geteuid() {
			return fmt.Errorf("%s belongs to another user (uid %d): cardlab does not replace it", p, uid)
		}
		if err := writeProtected(p, st.Mode()); err != nil {
			return err
		}
	}
	// A run killed between the renames of its swap left the old files in
	// its temporary: they are the only copy, so say where they are rather
	// than go on (CleanStale never removes them).
	if left := InterruptedSwaps(dir, dirTempBase); len(left) > 0 {
		return fmt.Errorf("%s: an earlier run was stopped while replacing its files; the files it replaced are in %s — move them back into %s (or delete that folder) and run again",
			dir, filepath.Join(left[0], swapOld), dir)
	}
	return checkWritableDir(dir, dir)
}

// dirTempBase names the temporary folder ReplaceDir makes inside an existing
// output folder.
const dirTempBase = "cardlab-out"

// ReplaceDir writes the files names into dir as a whole: render fills a
// temporary folder with them; then a missing dir is created by renaming the
// folder into place, and in an existing dir (other files in it are left
// alone) each old file is moved aside and the new one moved in — if any
// step fails, every step done is undone, so dir holds either all the new
// files or all the old ones. The temporary lies beside a new dir and inside
// an existing one (its parent need not be writable).
func ReplaceDir(dir string, names []string, render func(tmp string) error) error {
	dir = filepath.Clean(dir)
	if err := CheckDir(dir, names); err != nil {
		return err
	}
	exists := false
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		exists = true
	}
	// Temporaries of killed runs lie beside dir (it was new then) or in it.
	CleanStale(filepath.Dir(dir), filepath.Base(dir))
	var tmp string
	var err error
	if exists {
		CleanStale(dir, dirTempBase)
		tmp, err = mkdirTemp(dir, dirTempBase)
	} else {
		tmp, err = mkdirTemp(filepath.Dir(dir), filepath.Base(dir))
	}
	if err != nil {
		return fmt.Errorf("%s: cannot make a temporary folder: %v", dir, pathErr(err))
	}
	keep := false // a failed rollback leaves the old files in tmp
	defer func() {
		if !keep {
			os.RemoveAll(tmp)
		}
		untrack(tmp)
	}()
	if err := render(tmp); err != nil {
		return err
	}
	for _, n := range names {
		if st, err := os.Lstat(filepath.Join(tmp, filepath.FromSlash(n))); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("files: %s was not rendered", n)
		}
	}
	if !exists {
		if err := os.Chmod(tmp, newDirMode); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err == nil {
			untrack(tmp)
			return nil
		}
		// dir appeared meanwhile: replace file by file inside it.
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return fmt.Errorf("%s: cannot move the report into place", dir)
		}
	}
	// Ctrl-C (or SIGTERM) between the renames would leave dir half old and
	// half new: hold such signals for the swap's few renames and act on
	// them after.
	held := make(chan os.Signal, 2)
	signal.Notify(held, os.Interrupt, syscall.SIGTERM)
	err = swapFiles(dir, tmp, names)
	signal.Stop(held)
	if errors.Is(err, errRollbackFailed) {
		keep = true
	}
	select {
	case sig := <-held:
		if p, perr := os.FindProcess(os.Getpid()); perr == nil {
			_ = p.Signal(sig)
		}
	default:
	}
	return err
}

// errRollbackFailed marks a swap whose undo failed: the old files are
// still in the temporary folder, which must then be kept.
var errRollbackFailed = errors.New("restoring the old files failed")

// swapOld is the subfolder of a ReplaceDir temporary that holds the old
// files during the swap.
const swapOld = "old"

// testFailSwap, set by tests, makes the swap of the named file fail after
// the files before it were swapped.
var testFailSwap string

// swapFiles moves the new files in tmp into dir, keeping the old ones in
// tmp/old until all are in, and undoes every move if one fails.
func swapFiles(dir, tmp string, names []string) error {
	old := filepath.Join(tmp, swapOld)
	if err := os.Mkdir(old, 0o700); err != nil {
		return err
	}
	var undo []func() error
	rollback := func(cause error) error {
		for i := len(undo) - 1; i >= 0; i-- {
			if err := undo[i](); err != nil {
				return fmt.Errorf("%v; %w too (%v): they are in %s", cause, errRollbackFailed, err, filepath.Join(tmp, swapOld))
			}
		}
		return cause
	}
	for _, n := range names {
		n := filepath.FromSlash(n)
		dst, src, keep := filepath.Join(dir, n), filepath.Join(tmp, n), filepath.Join(old, n)
		// Subfolders: made as needed (an undone swap leaves them, empty).
		if err := os.MkdirAll(filepath.Dir(keep), 0o700); err != nil {
			return rollback(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return rollback(fmt.Errorf("%s: %v", filepath.Dir(dst), pathErr(err)))
		}
		st, err := os.Lstat(dst)
		switch {
		case err == nil && !st.Mode().IsRegular():
			return rollback(fmt.Errorf("%s is not a regular file: cardlab does not replace it", dst))
		case err == nil:
			if err := os.Rename(dst, keep); err != nil {
				return rollback(fmt.Errorf("moving %s aside: %v", dst, pathErr(err)))
			}
			undo = append(undo, func() error { return os.Rename(keep, dst) })
		case !errors.Is(err, fs.ErrNotExist):
			return rollback(fmt.Errorf("%s: %v", dst, pathErr(err)))
		}
		if n == testFailSwap {
			return rollback(fmt.Errorf("moving %s into place: test failure", n))
		}
		if err := os.Rename(src, dst); err != nil {
			return rollback(fmt.Errorf("moving %s into place: %v", n, pathErr(err)))
		}
		undo = append(undo, func() error { return os.Rename(dst, src) })
	}
	return nil
}

// Render creates the new file path (it must not exist: ReplaceDir's
// temporary folder is fresh) and renders into it, synced before it is
// closed so that a rename of the folder or file cannot outrun the data.
func Render(path string, render func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if err := render(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
