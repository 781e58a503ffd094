// Package files is how cardlab reads its inputs and writes its outputs, so
// that every command gets the same guarantees (docs/architecture.md, "Files"):
//
//   - an output is checked before any work starts (Check, CheckDir);
//   - a regular file is replaced atomically: written to a temporary file
//     beside it (.NAME.tmp-PID-HOST-RANDOM), synced, given the old file's mode and
//     renamed over it, so the final name never holds a truncated file;
//   - a symbolic link is followed and its target replaced the same way;
//   - a character device or FIFO (and "-" or /dev/stdout, standard output,
//     and /dev/stderr, /dev/fd/N) is written through, never replaced by a
//     regular file; a directory, a block device, a socket or another user's
//     file is refused, and so is a file of ours without its owner's write
//     permission;
//   - a report folder is replaced as a whole or rolled back (ReplaceDir);
//   - temporaries of ours left by a killed run are removed by the next one;
//   - an input is read up to a size cap (ReadCapped) and JSON inputs are
//     decoded as exactly one value, with line:col on every error
//     (DecodeJSON).
package files

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Stdout is the path that names standard output.
const Stdout = "-"

// kind is what an output path names.
type kind int

const (
	kindNew     kind = iota // nothing there yet: a new regular file
	kindRegular             // an existing regular file of ours: replaced
	kindThrough             // a character device or FIFO: written through
	kindStdout              // "-"
)

// newFileMode and newDirMode are what a new output gets: 0666 and 0777
// less the umask, as any file the user makes (read once, at start-up,
// before any goroutine could create a file meanwhile).
var newFileMode, newDirMode = func() (fs.FileMode, fs.FileMode) {
	m := umask()
	return 0o666 &^ m, 0o777 &^ m
}()

// target is a resolved output path.
type target struct {
	path string // after following symbolic links
	kind kind
	mode fs.FileMode // the old file's permissions (kindRegular)
	gid  int         // the old file's group (kindRegular; -1: none)
}

// resolve says what writing to path would do, or why it must not be done.
func resolve(path string) (target, error) {
	if path == "" {
		return target{}, errors.New("files: empty output path")
	}
	switch filepath.Clean(path) {
	case Stdout, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return target{path: Stdout, kind: kindStdout}, nil
	}
	if descriptorPath(path) {
		// /dev/stderr, /dev/fd/N: whatever the descriptor is, it is not
		// ours to replace.
		return target{path: path, kind: kindThrough}, nil
	}
	if err := checkLinkOwners(path); err != nil {
		return target{}, err
	}
	st, err := os.Stat(path) // follows symbolic links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		real := path
		if ls, err := os.Lstat(path); err == nil && ls.Mode()&fs.ModeSymlink != 0 {
			// A link to a missing file: create the file it names.
			if real, err = followLink(path); err != nil {
				return target{}, err
			}
		}
		dir := filepath.Dir(real)
		ds, err := os.Stat(dir)
		if err != nil {
			return target{}, fmt.Errorf("%s: the folder %s does not exist", path, dir)
		}
		if !ds.IsDir() {
			return target{}, fmt.Errorf("%s: %s is not a folder", path, dir)
		}
		return target{path: real, kind: kindNew, mode: newFileMode, gid: -1}, nil
	case err != nil:
		return target{}, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	m := st.Mode()
	switch {
	case m.IsDir():
		return target{}, fmt.Errorf("%s is a folder, not a file", path)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
		return target{path: path, kind: kindThrough}, nil
	case !m.IsRegular():
		return target{}, fmt.Errorf("%s is not a regular file (%s): cardlab does not replace it", path, describeMode(m))
	}
	if uid, ok := owner(st); ok && uid != os.Geteuid() {
		return target{}, fmt.Errorf("%s belongs to another user (uid %d): cardlab does not replace it", path, uid)
	}
	if err := writeProtected(path, m); err != nil {
		return target{}, err
	}
	// Replace the file a symbolic link names, not the link: the file is
	// what the user means, and replacing the link would detach it.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return target{}, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	return target{path: real, kind: kindRegular, mode: m.Perm(), gid: group(st)}, nil
}

// writeProtected refuses a file of ours that its owner may not write: its
// owner took the write permission away to keep it, and replacing it by a
// rename would get round that (so would root, who may write anything).
func writeProtected(path string, m fs.FileMode) error {
	if m.Perm()&0o200 == 0 {
		return fmt.Errorf("%s is write-protected (mode %04o): cardlab does not replace it; make it writable (chmod u+w) or write elsewhere", path, m.Perm())
	}
	return nil
}

// checkLinkOwners refuses a path whose symbolic links (the last element and
// every link it leads to) belong to another user: following such a link
// would let that user choose which of our files is replaced — the attack
// the kernel's protected_symlinks stops for opens, which a rename does not
// meet.
func checkLinkOwners(path string) error {
	cur := path
	for range 40 {
		st, err := os.Lstat(cur)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		if uid, ok := owner(st); ok && uid != os.Geteuid() {
			return fmt.Errorf("%s is a symbolic link of another user (uid %d): cardlab does not follow it", cur, uid)
		}
		to, err := os.Readlink(cur)
		if err != nil {
			return nil // resolve reports it
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(cur), to)
		}
		cur = to
	}
	return nil
}

// descriptorPath reports whether path names an open file descriptor
// (/dev/stderr, /dev/fd/N, /proc/self/fd/N).
func descriptorPath(path string) bool {
	p := filepath.Clean(path)
	return p == "/dev/stderr" || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// followLink returns the file a symbolic link finally names; a link to a
// missing file names the file it would create.
func followLink(path string) (string, error) {
	cur := path
	for range 40 {
		st, err := os.Lstat(cur)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return cur, nil
		}
		to, err := os.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("%s: %v", path, pathErr(err))
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(cur), to)
		}
		cur = to
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return m.Type().String()
}

// group is the file's group id, or -1 where there is none.
func group(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Gid)
	}
	return -1
}

func owner(st fs.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}

// pathErr strips the operation and path from an *fs.PathError, which the
// messages already name.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Check reports whether path can be written as an output, without changing
// anything: a command calls it for each output before it starts working.
func Check(path string) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.kind == kindNew || t.kind == kindRegular {
		if err := checkPartial(t, path); err != nil {
			return err
		}
		return checkWritableDir(filepath.Dir(t.path), path)
	}
	if t.kind == kindThrough {
		// A descriptor that is not open, or a device we may not write,
		// fails now rather than after the games.
		st, err := os.Stat(t.path)
		if err != nil {
			return fmt.Errorf("%s: %v", path, pathErr(err))
		}
		if st.Mode()&fs.ModeNamedPipe != 0 {
			// A FIFO needs a reader: opened now (kept for Create), not
			// after the games.
			return checkFIFO(t.path, path)
		}
		if err := syscallAccessW(t.path); err != nil {
			return fmt.Errorf("%s: cannot write to it: %v", path, pathErr(err))
		}
	}
	return nil
}

// checkPartial checks, before any work, the name beside a file output where
// an interrupted run's partial result goes (PartialName): it must be a file
// CommitAs can replace in the same folder, or the partial result would be
// lost after the games.
func checkPartial(t target, name string) error {
	p := PartialName(t.path)
	pt, err := resolve(p)
	if err == nil && pt.kind != kindNew && pt.kind != kindRegular {
		err = fmt.Errorf("%s is not a regular file: cardlab does not replace it", p)
	}
	if err == nil && filepath.Dir(pt.path) != filepath.Dir(t.path) {
		err = fmt.Errorf("%s is a link out of the folder of %s", p, name)
	}
	if err != nil {
		return fmt.Errorf("%v (an interrupted run's partial result goes there; move it away first)", err)
	}
	return nil
}

// checkWritableDir creates and removes a temporary file in dir: the only
// sure test that the rename at the end will be allowed.
func checkWritableDir(dir, what string) error {
	f, err := createTemp(dir, ".cardlab-check")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %v", what, dir, pathErr(err))
	}
	f.Close()
	untrack(f.Name())
	return os.Remove(f.Name())
}

// --- temporaries ---------------------------------------------------------------

// tempMarker separates a temporary's base name from its owner and nonce:
// .NAME.tmp-PID-RANDOM.
const tempMarker = ".tmp-"

var (
	liveMu sync.Mutex
	live   = map[string]bool{} // temporaries this process has made and not yet removed or renamed
)

func track(p string)   { liveMu.Lock(); live[p] = true; liveMu.Unlock() }
func untrack(p string) { liveMu.Lock(); delete(live, p); liveMu.Unlock() }

// RemoveTemporaries removes every temporary this process still holds; a
// process that quits at once (a second Ctrl-C) calls it before exiting. A
// folder's swap under way is given a moment to finish; one that does not
// keeps its temporary, whose journal lets the next run finish it.
func RemoveTemporaries() {
	busy := waitSwaps(2 * time.Second)
	liveMu.Lock()
	defer liveMu.Unlock()
	for p := range live {
		if busy[p] || journaled(p) {
			continue
		}
		os.RemoveAll(p)
		delete(live, p)
	}
}

// tempName is .BASE.tmp-PID-HOST-RANDOM: the process id and where it is
// one (hostTag) say whether the writer still runs (CleanStale).
func tempName(dir, base string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return filepath.Join(dir, "."+base+tempMarker+strconv.Itoa(os.Getpid())+"-"+hostTag+"-"+hex.EncodeToString(b[:]))
}

// hostTag names this machine and process-id namespace: a process id tells
// whether a temporary's writer is alive only where it was issued, and a
// folder may be shared with another machine or container (a network
// volume), whose ids mean nothing here.
var hostTag = func() string {
	host, _ := os.Hostname()
	ns, _ := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"; none outside Linux
	sum := sha256.Sum256([]byte(host + "\x00" + ns))
	return hex.EncodeToString(sum[:4])
}()

func createTemp(dir, base string) (*os.File, error) {
	for range 100 {
		name := tempName(dir, base)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		track(name)
		return f, nil
	}
	return nil, errors.New("cannot make a unique temporary name")
}

func mkdirTemp(dir, base string) (string, error) {
	for range 100 {
		name := tempName(dir, base)
		err := os.Mkdir(name, 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		track(name)
		return name, nil
	}
	return "", errors.New("cannot make a unique temporary name")
}

// staleAge is how old a temporary of a still-running process id must be
// before it is taken for stale (the id may have been reused).
const staleAge = 24 * time.Hour

// CleanStale removes the temporaries of base in dir (.BASE.tmp-PID-HOST-…)
// that are ours (same user) and stale: made here (HOST is hostTag) by a
// process that is gone, or older than a day — a temporary made on another
// machine or in another container, whose process cannot be looked up from
// here, only then. A run killed with SIGKILL cannot clean up after itself;
// the next run writing the same output does.
func CleanStale(dir, base string) {
	prefix := "." + base + tempMarker
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		pidText, rest, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		// Temporaries made before names carried a host are taken for
		// this host's.
		host, _, tagged := strings.Cut(rest, "-")
		elsewhere := tagged && host != hostTag
		st, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if uid, ok := owner(st); !ok || uid != os.Geteuid() {
			continue
		}
		young := time.Since(st.ModTime()) < staleAge
		if elsewhere && young || !elsewhere && (pid == os.Getpid() || processAlive(pid) && young) {
			continue
		}
		if journaled(filepath.Join(dir, name)) || interruptedSwap(filepath.Join(dir, name)) {
			continue // a swap to finish, or the only copy of a folder's old files
		}
		os.RemoveAll(filepath.Join(dir, name))
	}
}

// interruptedSwap reports whether tmp, a ReplaceDir temporary, holds old
// files moved aside by a swap that never finished (the run was killed
// between its renames): they are the only copy of what the folder held.
func interruptedSwap(tmp string) bool {
	entries, err := os.ReadDir(filepath.Join(tmp, swapOld))
	return err == nil && len(entries) > 0
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// --- one output file -------------------------------------------------------------

// Output is an output being written. Nothing appears under the final name
// until Commit; Abort (or a failed Commit) leaves the old file as it was.
// A device, FIFO or standard output is written through as data comes.
type Output struct {
	name   string // as given, for messages
	t      target
	stdout io.Writer
	f      *os.File // the temporary, or the device opened for writing
	w      *bufio.Writer
	err    error
	closed bool
}

// Create starts writing the output path ("-": stdout). It checks the path
// as Check does and opens the temporary beside it at once, so a command that
// creates its outputs before it starts working fails before doing the work.
// A device or FIFO is opened at once; a FIFO without a reader is waited for
// a few seconds, then refused.
func Create(path string, stdout io.Writer) (*Output, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	o := &Output{name: path, t: t, stdout: stdout}
	switch t.kind {
	case kindStdout:
		o.w = bufio.NewWriterSize(&tracked{w: stdout, name: "standard output"}, 64<<10)
	case kindThrough:
		f, err := openThrough(t.path, path)
		if err != nil {
			return nil, err
		}
		o.f, o.w = f, bufio.NewWriterSize(&tracked{w: f, name: path}, 64<<10)
	case kindNew, kindRegular:
		if err := checkPartial(t, path); err != nil {
			return nil, err
		}
		dir := filepath.Dir(t.path)
		CleanStale(dir, filepath.Base(t.path))
		f, err := createTemp(dir, filepath.Base(t.path))
		if err != nil {
			return nil, fmt.Errorf("%s: cannot write in %s: %v", path, dir, pathErr(err))
		}
		o.f, o.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	return o, nil
}

// Name is the path the output was created with.
func (o *Output) Name() string { return o.name }

// Direct reports whether the output is written through (standard output, a
// device or a FIFO) rather than replaced at Commit.
func (o *Output) Direct() bool { return o.t.kind == kindThrough || o.t.kind == kindStdout }

func (o *Output) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	if o.closed {
		return 0, errors.New("files: write after close")
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = fmt.Errorf("writing %s: %v", o.name, pathErr(err))
	}
	return n, o.err
}

// Path is the file the output is written to, after symbolic links (Stdout
// for standard output): a partial result goes beside it.
func (o *Output) Path() string { return o.t.path }

// Same reports whether two output paths name the same file, however they
// are spelled: "./o.json" and "o.json", a link and the file it names, a
// hard link, a folder reached two ways. Two outputs of one run must not.
func Same(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, erra := resolve(a)
	rb, errb := resolve(b)
	if erra != nil || errb != nil {
		return false
	}
	if ra.path == rb.path {
		return true
	}
	sa, ea := os.Stat(ra.path)
	sb, eb := os.Stat(rb.path)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	// New files: the same name in the same folder.
	da, ea := os.Stat(filepath.Dir(ra.path))
	db, eb := os.Stat(filepath.Dir(rb.path))
	return ea == nil && eb == nil && os.SameFile(da, db) && filepath.Base(ra.path) == filepath.Base(rb.path)
}

// Commit finishes the output: a file is synced, given the old file's mode
// and renamed over the final name; a device or stdout is flushed.
func (o *Output) Commit() error { return o.commit("") }

// CommitAs finishes the output under another name beside the first — the
// partial result of an interrupted run goes to NAME.partial.json and never
// over a complete NAME.json. A written-through output is only flushed.
func (o *Output) CommitAs(path string) error { return o.commit(path) }

func (o *Output) commit(as string) error {
	if o.closed {
		return errors.New("files: output committed twice")
	}
	if o.err != nil {
		o.Abort()
		return o.err
	}
	if err := o.w.Flush(); err != nil {
		o.Abort()
		return fmt.Errorf("writing %s: %v", o.name, pathErr(err))
	}
	o.closed = true
	switch o.t.kind {
	case kindStdout:
		return nil
	case kindThrough:
		if err := o.f.Close(); err != nil {
			return fmt.Errorf("writing %s: %v", o.name, pathErr(err))
		}
		return nil
	}
	dest, mode, gid, name := o.t.path, o.t.mode, o.t.gid, o.name
	if as != "" {
		t, err := resolve(as)
		if err != nil {
			o.removeTemp()
			return err
		}
		if t.kind != kindNew && t.kind != kindRegular {
			o.removeTemp()
			return fmt.Errorf("%s is not a regular file: cardlab does not replace it", as)
		}
		dest, mode, gid, name = t.path, t.mode, t.gid, as
		if t.kind == kindNew && o.t.kind == kindRegular {
			mode, gid = o.t.mode, o.t.gid // as private as the complete file beside it
		}
		if filepath.Dir(dest) != filepath.Dir(o.t.path) {
			o.removeTemp()
			return fmt.Errorf("%s: not in the folder of %s", as, o.name)
		}
	}
	err := o.f.Sync()
	if err == nil {
		err = o.f.Chmod(mode)
	}
	if err == nil && gid >= 0 {
		// The old file's group, as its mode: a file shared with a group
		// stays shared. Only its owner in that group (or root) may set
		// it; otherwise the file gets the default group, as a new one.
		_ = o.f.Chown(-1, gid)
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.f.Name(), dest)
	}
	if err != nil {
		o.removeTemp()
		return fmt.Errorf("writing %s: %v", name, pathErr(err))
	}
	untrack(o.f.Name())
	return nil
}

func (o *Output) removeTemp() {
	if o.f != nil && (o.t.kind == kindNew || o.t.kind == kindRegular) {
		o.f.Close()
		os.Remove(o.f.Name())
		untrack(o.f.Name())
	}
}

// Abort drops the output: the temporary is removed and the final name keeps
// what it held. Aborting a committed output does nothing, so `defer
// o.Abort()` is always safe.
func (o *Output) Abort() {
	if o.closed {
		return
	}
	o.closed = true
	if o.t.kind == kindThrough && o.f != nil {
		if o.w != nil {
			_ = o.w.Flush()
		}
		o.f.Close()
		return
	}
	if o.t.kind == kindStdout {
		_ = o.w.Flush()
		return
	}
	o.removeTemp()
}

// WriteFile writes data to path as one output (Create, Write, Commit).
func WriteFile(path string, data []byte, stdout io.Writer) error {
	o, err := Create(path, stdout)
	if err != nil {
		return err
	}
	if _, err := o.Write(data); err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

// PartialName is where the partial result of an interrupted run is written
// instead of path: NAME.partial.EXT beside it ("r.json" → "r.partial.json").
func PartialName(path string) string {
	if path == Stdout {
		return path
	}
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	if ext == base {
		ext = ""
	}
	return dir + strings.TrimSuffix(base, ext) + ".partial" + ext
}
