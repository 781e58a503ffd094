package files

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The swap tests kill a child process in the middle of a swap: the test
// binary re-executed with FILES_TEST_SWAP=DIR|STEP|SIGNAL writes "new" into
// DIR's files and sends itself SIGNAL before the swap's rename STEP.
func TestMain(m *testing.M) {
	if spec := os.Getenv("FILES_TEST_SWAP"); spec != "" {
		os.Exit(swapChild(spec))
	}
	os.Exit(m.Run())
}

var swapNames = []string{"a.txt", "sub/b.txt", "c.txt"}

func swapChild(spec string) int {
	parts := strings.Split(spec, "|")
	dir := parts[0]
	step, _ := strconv.Atoi(parts[1])
	sig, _ := strconv.Atoi(parts[2])
	testSwapStep = func(i int) {
		if i == step {
			syscall.Kill(os.Getpid(), syscall.Signal(sig))
			if syscall.Signal(sig) == syscall.SIGKILL {
				time.Sleep(time.Minute) // dies here
			}
		}
	}
	if err := ReplaceDir(dir, swapNames, fillAll("new")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	return 0
}

func fillAll(content string) func(string) error {
	return func(tmp string) error {
		for _, n := range swapNames {
			p := filepath.Join(tmp, filepath.FromSlash(n))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// wantSet checks that dir holds every name with content, and no temporary.
func wantSet(t *testing.T, dir, content string) {
	t.Helper()
	for _, n := range swapNames {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n))); string(b) != content {
			t.Errorf("%s holds %q (%v), want %q", n, b, err, content)
		}
	}
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left in %s: %s", dir, e.Name())
		}
	}
}

// runSwapChild runs the child and returns the signal that ended it (0 if
// it exited).
func runSwapChild(t *testing.T, dir string, step int, sig syscall.Signal) syscall.Signal {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("FILES_TEST_SWAP=%s|%d|%d", dir, step, int(sig)))
	out, err := cmd.CombinedOutput()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return ws.Signal()
	}
	if err != nil {
		t.Fatalf("child: %v: %s", err, out)
	}
	return 0
}

// TestSwapInterruptedByCtrlC: Ctrl-C or SIGTERM before any rename of the
// swap is held until the swap is done and its temporary removed, then
// acted on: the folder holds the complete new files, nothing else, and the
// process ends by the signal.
func TestSwapInterruptedByCtrlC(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for step := range 2 * len(swapNames) {
			dir := filepath.Join(t.TempDir(), "report")
			os.Mkdir(dir, 0o755)
			fillAll("old")(dir)
			if got := runSwapChild(t, dir, step, sig); got != sig {
				t.Errorf("%v at rename %d: the child ended by %v", sig, step, got)
			}
			wantSet(t, dir, "new")
		}
	}
}

// TestSwapKilledIsFinishedByNextRun: a run killed (SIGKILL) before any
// rename of its swap leaves a journal; the next run into the folder
// proceeds, finishes that swap and writes its own files, and the folder
// never needs a hand-made repair.
func TestSwapKilledIsFinishedByNextRun(t *testing.T) {
	for step := range 2 * len(swapNames) {
		dir := filepath.Join(t.TempDir(), "report")
		os.Mkdir(dir, 0o755)
		fillAll("old")(dir)
		if got := runSwapChild(t, dir, step, syscall.SIGKILL); got != syscall.SIGKILL {
			t.Fatalf("the child ended by %v", got)
		}
		if err := CheckDir(dir, swapNames); err != nil {
			t.Fatalf("rename %d: the next run is refused: %v", step, err)
		}
		// The killed run's files are complete: finishing its swap
		// gives them all.
		unlock, err := lockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := finishSwaps(dir); err != nil {
			t.Fatal(err)
		}
		unlock()
		wantSet(t, dir, "new")
		if err := ReplaceDir(dir, swapNames, fillAll("next")); err != nil {
			t.Fatalf("rename %d: %v", step, err)
		}
		wantSet(t, dir, "next")
	}
	// Killed with the journal and nothing else done: the next
	// ReplaceDir itself finishes it, then swaps its own.
	dir := filepath.Join(t.TempDir(), "report")
	os.Mkdir(dir, 0o755)
	fillAll("old")(dir)
	runSwapChild(t, dir, 3, syscall.SIGKILL)
	if err := ReplaceDir(dir, swapNames, fillAll("next")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "next")
}

// TestReplaceDirConcurrentWriters: two runs writing one folder at once
// (renames slowed, as the strace did) never undo each other's
// files: the folder ends with one run's complete set, never a missing or
// mixed file.
func TestReplaceDirConcurrentWriters(t *testing.T) {
	testSwapStep = func(int) { time.Sleep(3 * time.Millisecond) }
	defer func() { testSwapStep = nil }()
	for round := range 6 {
		dir := filepath.Join(t.TempDir(), "report")
		os.Mkdir(dir, 0o755)
		fillAll("old")(dir)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w, content := range []string{"A", "B"} {
			wg.Go(func() { errs[w] = ReplaceDir(dir, swapNames, fillAll(content)) })
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: %v, %v", round, errs[0], errs[1])
		}
		b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
		if string(b) != "A" && string(b) != "B" {
			t.Fatalf("round %d: a.txt holds %q", round, b)
		}
		wantSet(t, dir, string(b))
	}
}

// TestFolderThroughForeignSymlinkRefused: a folder output reached through
// another user's symbolic link (shared/rep → elsewhere) is refused, as a
// file output is; the folder it points at is left alone.
func TestFolderThroughForeignSymlinkRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a link owned by another user needs root")
	}
	root := t.TempDir()
	target := filepath.Join(root, "elsewhere")
	os.Mkdir(target, 0o755)
	for _, c := range []struct{ name, to string }{{"rep", target}, {"missing", filepath.Join(root, "nothing")}} {
		link := filepath.Join(root, c.name)
		if err := os.Symlink(c.to, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(link, 65534, 65534); err != nil {
			t.Skip("cannot chown a link here:", err)
		}
		for _, err := range []error{CheckDir(link, swapNames), ReplaceDir(link, swapNames, fillAll("new")), AddToDir(link, swapNames, fillAll("new"))} {
			if err == nil || !strings.Contains(err.Error(), "symbolic link of another user") {
				t.Errorf("%s: %v", c.name, err)
			}
		}
	}
	if es, _ := os.ReadDir(target); len(es) != 0 {
		t.Errorf("written into the link's target: %v", es)
	}
	if _, err := os.Lstat(filepath.Join(root, "nothing")); err == nil {
		t.Error("a dangling foreign link's target was created")
	}
	// A link of our own is followed.
	own := filepath.Join(root, "own")
	os.Symlink(target, own)
	if err := ReplaceDir(own, swapNames, fillAll("new")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, target, "new")
}

// TestAddToDirNeverReplaces: AddToDir writes into a folder only files that
// are not there, all or none.
func TestAddToDirNeverReplaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	if err := AddToDir(dir, swapNames, fillAll("one")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "one")
	os.Remove(filepath.Join(dir, "a.txt"))
	if err := AddToDir(dir, swapNames, fillAll("two")); err == nil || !strings.Contains(err.Error(), "does not replace it") {
		t.Fatalf("AddToDir over existing files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("a file was added although others were in the way")
	}
}
