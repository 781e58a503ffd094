package files

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// CheckDir reports whether dir can receive the files names through
// ReplaceDir, without changing anything: dir is missing (and its parent is
// a folder we can write in) or a folder we can write in whose entries of
// those names are regular files of ours or absent. A name may lie in a
// subfolder ("tts/klingon.json"); the folders on its way must be folders.
// A symbolic link of another user is not followed, as for a file output.
func CheckDir(dir string, names []string) error {
	dir = filepath.Clean(dir)
	if err := checkLinkOwners(dir); err != nil {
		return err
	}
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
	// A swap of an older cardlab, killed between its renames, left the
	// old files in its temporary without a journal: which side is
	// complete cannot be told, so say where they are rather than guess.
	// (A swap with a journal is finished by the next ReplaceDir.)
	if left := legacySwaps(dir); len(left) > 0 {
		return fmt.Errorf("%s: an older cardlab was stopped while replacing its files; the files it replaced are in %s — if %s is not complete, move them back into it; then delete %s and run again",
			dir, filepath.Join(left[0], swapOld), dir, left[0])
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
//
// Two processes writing one folder exclude each other: the swap runs under
// an exclusive lock on the folder (flock), so neither can move aside or
// undo the other's files. The swap keeps a journal in the temporary (the
// list of names, written once all new files are rendered): a run killed
// in the middle of it — SIGKILL, a power cut — leaves the journal, and the
// next ReplaceDir of the folder finishes that swap first (the new files
// are complete, so it moves the rest of them in), under the same lock.
// Ctrl-C and SIGTERM are held during the swap and acted on once the
// temporary is gone.
func ReplaceDir(dir string, names []string, render func(tmp string) error) error {
	return replaceDir(dir, names, render, true)
}

// AddToDir is ReplaceDir for files that must not exist yet (cardlab init):
// if any of names appears in dir before its swap, nothing is written.
func AddToDir(dir string, names []string, render func(tmp string) error) error {
	return replaceDir(dir, names, render, false)
}

func replaceDir(dir string, names []string, render func(tmp string) error, replace bool) error {
	dir = filepath.Clean(dir)
	for _, n := range names {
		if !filepath.IsLocal(filepath.FromSlash(n)) {
			return fmt.Errorf("files: %q is not a name inside the folder", n)
		}
	}
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
	keep := false // a failed rollback leaves the swap to be finished
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
			return fmt.Errorf("%s: cannot move the files into place", dir)
		}
		if err := os.Chmod(tmp, 0o700); err != nil {
			return err
		}
	}

	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	// Ctrl-C (or SIGTERM) between the renames would leave dir half old and
	// half new: hold such signals from the journal to the removal of the
	// temporary, and act on them after.
	held := make(chan os.Signal, 2)
	signal.Notify(held, os.Interrupt, syscall.SIGTERM)
	beginSwap(tmp)
	err = swapLocked(dir, tmp, names, replace)
	if errors.Is(err, errRollbackFailed) {
		keep = true
	} else {
		removeSwapTemp(tmp)
	}
	untrack(tmp)
	endSwap(tmp)
	unlock()
	signal.Stop(held)
	select {
	case sig := <-held:
		if handlers.Load() == 0 {
			// No one else acts on it: do what it would have done
			// without the hold (the default action ends the process).
			raise(sig.(syscall.Signal))
		}
	default:
	}
	return err
}

// swapLocked, under dir's lock, finishes the swaps of killed runs and
// swaps tmp's files in, journaled.
func swapLocked(dir, tmp string, names []string, replace bool) error {
	if err := finishSwaps(dir); err != nil {
		return err
	}
	if !replace {
		for _, n := range names {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(n))); err == nil {
				return fmt.Errorf("%s appeared meanwhile: cardlab does not replace it", filepath.Join(dir, filepath.FromSlash(n)))
			}
		}
	}
	if err := writeJournal(tmp, names); err != nil {
		return fmt.Errorf("%s: %v", dir, pathErr(err))
	}
	return swapFiles(dir, tmp, names)
}

// removeSwapTemp removes a swap's temporary, the old files first and the
// journal last, so that a run killed meanwhile leaves either a journal
// (whose swap is finished again, harmlessly) or no old files.
func removeSwapTemp(tmp string) {
	os.RemoveAll(filepath.Join(tmp, swapOld))
	es, _ := os.ReadDir(tmp)
	for _, e := range es {
		if e.Name() != journalName {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
	os.Remove(filepath.Join(tmp, journalName))
	os.Remove(tmp)
}

// lockWait bounds the wait for another process's swap of the same folder
// (a few renames): a holder stuck longer is reported, not waited for.
var lockWait = 30 * time.Second

// lockDir takes the exclusive lock on dir (flock on the folder itself:
// nothing is left behind, and the kernel drops it when its holder dies).
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrPermission) {
		return func() {}, nil // a folder we may write but not read: unlocked, as before
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, pathErr(err))
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := flock(f, true)
		if err == nil {
			return func() { _ = flock(f, false); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			if errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) {
				return func() {}, nil // no locks on this file system: as before
			}
			return nil, fmt.Errorf("%s: cannot lock it: %v", dir, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s: another cardlab run has been writing into it for %v; try again when it has finished", dir, lockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// --- the swap journal and signals -------------------------------------------------

// journalName is the file in a swap's temporary listing the names being
// swapped: it is written once all of them are rendered, so its presence
// says the new side is complete.
const journalName = "journal"

func writeJournal(tmp string, names []string) error {
	p := filepath.Join(tmp, journalName)
	f, err := os.OpenFile(p+".new", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, n := range names {
		w.WriteString(n + "\n")
	}
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p+".new", p)
	}
	return err
}

// readJournal reads a swap's journal; ok is false without one (or with a
// damaged one, which names something outside the folder).
func readJournal(tmp string) (names []string, ok bool) {
	b, err := ReadCapped(filepath.Join(tmp, journalName), 1<<20, "a journal")
	if err != nil {
		return nil, false
	}
	for _, n := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if n == "" || !filepath.IsLocal(filepath.FromSlash(n)) {
			return nil, false
		}
		names = append(names, n)
	}
	return names, len(names) > 0
}

// swapTemps lists the temporaries of swaps into dir: inside it, and beside
// it (a new folder that appeared while its files were rendered).
func swapTemps(dir string) []string {
	var out []string
	for _, loc := range [][2]string{{dir, dirTempBase}, {filepath.Dir(dir), filepath.Base(dir)}} {
		prefix := "." + loc[1] + tempMarker
		es, err := os.ReadDir(loc[0])
		if err != nil {
			continue
		}
		for _, e := range es {
			if strings.HasPrefix(e.Name(), prefix) && e.IsDir() {
				out = append(out, filepath.Join(loc[0], e.Name()))
			}
		}
	}
	return out
}

// finishSwaps finishes, under dir's lock, every swap into dir that a
// killed run left with a journal: its new files are complete, so those
// still in the temporary are moved in (a file moved in already is gone
// from it), and the temporary is removed. The lock says no live run is
// swapping (the journal is written under it).
func finishSwaps(dir string) error {
	for _, tmp := range swapTemps(dir) {
		st, err := os.Lstat(tmp)
		if err != nil {
			continue
		}
		if uid, ok := owner(st); ok && uid != os.Geteuid() {
			continue
		}
		names, ok := readJournal(tmp)
		if !ok {
			continue
		}
		for _, n := range names {
			src := filepath.Join(tmp, filepath.FromSlash(n))
			if _, err := os.Lstat(src); err != nil {
				continue // moved in already
			}
			dst := filepath.Join(dir, filepath.FromSlash(n))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("%s: finishing an interrupted run's swap: %v", dir, pathErr(err))
			}
			if st, err := os.Lstat(dst); err == nil && !st.Mode().IsRegular() {
				return fmt.Errorf("%s: finishing an interrupted run's swap: %s is %s; move it away and run again", dir, dst, describeMode(st.Mode()))
			}
			if err := os.Rename(src, dst); err != nil {
				return fmt.Errorf("%s: finishing an interrupted run's swap: %v", dir, pathErr(err))
			}
		}
		removeSwapTemp(tmp)
	}
	return nil
}

// journaled reports whether tmp holds a swap journal.
func journaled(tmp string) bool {
	_, err := os.Lstat(filepath.Join(tmp, journalName))
	return err == nil
}

// legacySwaps lists the temporaries in dir of swaps that an older cardlab
// (without journals) left in the middle: old files parked, no journal.
func legacySwaps(dir string) []string {
	var out []string
	for _, tmp := range swapTemps(dir) {
		if interruptedSwap(tmp) && !journaled(tmp) {
			out = append(out, tmp)
		}
	}
	return out
}

var (
	// handlers counts the signal handlers outside this package that act
	// on Ctrl-C and SIGTERM (HandleSignals): with one, a signal held
	// during a swap was seen by it and is not sent again.
	handlers atomic.Int32

	swapMu   sync.Mutex
	swapDone = sync.NewCond(&swapMu)
	swapping = map[string]bool{} // temporaries whose swap is under way
)

// HandleSignals tells the package that the caller acts on Ctrl-C and
// SIGTERM itself (signal.Notify) until the returned function is called.
func HandleSignals() (done func()) {
	handlers.Add(1)
	var once sync.Once
	return func() { once.Do(func() { handlers.Add(-1) }) }
}

func beginSwap(tmp string) { swapMu.Lock(); swapping[tmp] = true; swapMu.Unlock() }

func endSwap(tmp string) {
	swapMu.Lock()
	delete(swapping, tmp)
	swapDone.Broadcast()
	swapMu.Unlock()
}

// waitSwaps waits until no swap is under way, at most d, and returns the
// temporaries of those still running.
func waitSwaps(d time.Duration) map[string]bool {
	timer := time.AfterFunc(d, func() { swapMu.Lock(); swapDone.Broadcast(); swapMu.Unlock() })
	defer timer.Stop()
	deadline := time.Now().Add(d)
	swapMu.Lock()
	defer swapMu.Unlock()
	for len(swapping) > 0 && time.Now().Before(deadline) {
		swapDone.Wait()
	}
	left := map[string]bool{}
	for p := range swapping {
		left[p] = true
	}
	return left
}

// errRollbackFailed marks a swap whose undo failed: the temporary, with
// its journal, is kept, and the next run finishes the swap.
var errRollbackFailed = errors.New("restoring the old files failed")

// swapOld is the subfolder of a ReplaceDir temporary that holds the old
// files during the swap.
const swapOld = "old"

// testFailSwap, set by tests, makes the swap of the named file fail after
// the files before it were swapped; testSwapStep, set by tests, is called
// before each rename of the swap with its number (from 0).
var (
	testFailSwap string
	testSwapStep func(step int)
)

// swapFiles moves the new files in tmp into dir, keeping the old ones in
// tmp/old until all are in, and undoes every move if one fails.
func swapFiles(dir, tmp string, names []string) error {
	old := filepath.Join(tmp, swapOld)
	if err := os.Mkdir(old, 0o700); err != nil {
		return err
	}
	step := 0
	rename := func(from, to string) error {
		if testSwapStep != nil {
			testSwapStep(step)
		}
		step++
		return os.Rename(from, to)
	}
	var undo []func() error
	rollback := func(cause error) error {
		for i := len(undo) - 1; i >= 0; i-- {
			if err := undo[i](); err != nil {
				return fmt.Errorf("%v; %w too (%v): the next run into %s finishes the swap", cause, errRollbackFailed, err, dir)
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
			if err := rename(dst, keep); err != nil {
				return rollback(fmt.Errorf("moving %s aside: %v", dst, pathErr(err)))
			}
			undo = append(undo, func() error { return os.Rename(keep, dst) })
		case !errors.Is(err, fs.ErrNotExist):
			return rollback(fmt.Errorf("%s: %v", dst, pathErr(err)))
		}
		if n == testFailSwap {
			return rollback(fmt.Errorf("moving %s into place: test failure", n))
		}
		if err := rename(src, dst); err != nil {
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
