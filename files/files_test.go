package files

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mknod makes a character device like /dev/null in dir, or skips the test.
func mknod(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Skipf("cannot make a character device here (mknod: %v); the device test needs root or CAP_MKNOD", err)
	}
	return p
}

func TestCharacterDeviceWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	p := mknod(t, dir)
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("data\n"), nil); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("the device was replaced: %v %v", st.Mode(), err)
	}
	wantOnly(t, dir, "null")
}

func TestFIFOWrittenThrough(t *testing.T) {
	dir, p, got := checkedFIFOWithReader(t)
	if err := WriteFile(p, []byte("through the pipe\n"), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if string(b) != "through the pipe\n" {
			t.Fatalf("read %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived through the FIFO")
	}
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	wantOnly(t, dir, "fifo")
}

// checkedFIFOWithReader makes a FIFO in a new folder, starts a reader that
// sends all it reads to got, and checks the FIFO as an output.
func checkedFIFOWithReader(t *testing.T) (dir, p string, got chan []byte) {
	t.Helper()
	dir = t.TempDir()
	p = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	got = make(chan []byte)
	go func() {
		b, _ := os.ReadFile(p)
		got <- b
	}()
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	return dir, p, got
}

// wantOnly checks that dir holds exactly names (no temporaries left).
func wantOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}

func TestRegularFileReplacedKeepingMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	o, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("new content"))
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("the final name changed before Commit: %q", b)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "new content" || st.Mode().Perm() != 0o640 {
		t.Fatalf("got %q mode %v", b, st.Mode().Perm())
	}
	wantOnly(t, dir, "out.json")
}

func TestAbortKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	os.WriteFile(p, []byte("complete"), 0o644)
	o, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("half"))
	o.Abort()
	if b, _ := os.ReadFile(p); string(b) != "complete" {
		t.Fatalf("got %q", b)
	}
	wantOnly(t, dir, "out.json")
}

func TestCommitAsPartialBeside(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	os.WriteFile(p, []byte("complete"), 0o644)
	o, _ := Create(p, nil)
	o.Write([]byte("partial"))
	if err := o.CommitAs(PartialName(p)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "complete" {
		t.Fatalf("complete file replaced: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r.partial.json")); string(b) != "partial" {
		t.Fatalf("partial file: %q", b)
	}
}

func TestPartialName(t *testing.T) {
	for in, want := range map[string]string{"r.json": "r.partial.json", "d/g.jsonl": "d/g.partial.jsonl",
		"noext": "noext.partial", ".hidden": ".hidden.partial", "-": "-"} {
		if got := PartialName(in); got != want {
			t.Errorf("PartialName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
}

func TestRefusedOutputs(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "sub"), "is a folder"},
		{filepath.Join(dir, "missing", "x.json"), "does not exist"},
		{"", "empty output path"},
	} {
		if err := Check(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%q) = %v, want %q", c.path, err, c.want)
		}
		if _, err := Create(c.path, nil); err == nil {
			t.Errorf("Create(%q) succeeded", c.path)
		}
	}
}

func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	// A process id that is not running: the largest pid plus a margin.
	dead := filepath.Join(dir, ".out.json.tmp-"+strconv.Itoa(1<<22+12345)+"-abcd")
	mine := filepath.Join(dir, ".out.json.tmp-"+strconv.Itoa(os.Getpid())+"-abcd")
	other := filepath.Join(dir, ".other.json.tmp-1-abcd")
	for _, p := range []string{dead, mine, other} {
		os.WriteFile(p, nil, 0o600)
	}
	if err := WriteFile(filepath.Join(dir, "out.json"), []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the stale temporary of a dead process is still there")
	}
	for _, p := range []string{mine, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

// TestCleanStaleElsewhere: a temporary made on another host or in another
// container (its name carries another host tag) is left while it is young,
// whatever its process id says here; this host's are judged by their
// process.
func TestCleanStaleElsewhere(t *testing.T) {
	dir := t.TempDir()
	deadPID := strconv.Itoa(1<<22 + 12345)
	elsewhere := filepath.Join(dir, ".out.json.tmp-"+deadPID+"-0badc0de-abcd")
	elsewhereOld := filepath.Join(dir, ".out.json.tmp-"+deadPID+"-0badc0de-ef01")
	here := filepath.Join(dir, ".out.json.tmp-"+deadPID+"-"+hostTag+"-abcd")
	for _, p := range []string{elsewhere, elsewhereOld, here} {
		os.WriteFile(p, nil, 0o600)
	}
	old := time.Now().Add(-staleAge - time.Hour)
	os.Chtimes(elsewhereOld, old, old)
	CleanStale(dir, "out.json")
	for p, kept := range map[string]bool{elsewhere: true, elsewhereOld: false, here: false} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, kept)
		}
	}
	if n := filepath.Base(tempName(dir, "out.json")); !strings.HasPrefix(n, ".out.json.tmp-"+strconv.Itoa(os.Getpid())+"-"+hostTag+"-") {
		t.Errorf("temporary name %s", n)
	}
}

func TestReplaceDirNew(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "report")
	names := []string{"a.txt", "b.txt"}
	if err := ReplaceDir(dir, names, fill(names, "new")); err != nil {
		t.Fatal(err)
	}
	wantOnly(t, dir, names...)
	wantOnly(t, parent, "report")
}

func fill(names []string, content string) func(string) error {
	return func(tmp string) error {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(tmp, n), []byte(content), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestReplaceDirRollsBack(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "report")
	os.Mkdir(dir, 0o755)
	names := []string{"a.txt", "b.txt", "c.txt"}
	fill(names, "old")(dir)
	// A killed run's temporaries, beside the folder and in it.
	dead := strconv.Itoa(1<<22 + 12345)
	os.Mkdir(filepath.Join(parent, ".report.tmp-"+dead+"-ab"), 0o700)
	os.Mkdir(filepath.Join(dir, ".cardlab-out.tmp-"+dead+"-ab"), 0o700)
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o644)
	testFailSwap = "c.txt"
	defer func() { testFailSwap = "" }()
	if err := ReplaceDir(dir, names, fill(names, "new")); err == nil {
		t.Fatal("no error")
	}
	for _, n := range names {
		if b, _ := os.ReadFile(filepath.Join(dir, n)); string(b) != "old" {
			t.Errorf("%s holds %q after the rollback", n, b)
		}
	}
	wantOnly(t, dir, "a.txt", "b.txt", "c.txt", "mine.txt")
	wantOnly(t, parent, "report") // the temporary went inside the existing folder
	testFailSwap = ""
	if err := ReplaceDir(dir, names, fill(names, "new")); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if b, _ := os.ReadFile(filepath.Join(dir, n)); string(b) != "new" {
			t.Errorf("%s holds %q", n, b)
		}
	}
	wantOnly(t, dir, "a.txt", "b.txt", "c.txt", "mine.txt")
}

func TestCheckDirRefusesAFolderInTheWay(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "b.txt"), 0o755)
	err := CheckDir(dir, []string{"a.txt", "b.txt"})
	if err == nil || !strings.Contains(err.Error(), "b.txt is a folder") {
		t.Fatalf("got %v", err)
	}
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	if err := CheckDir(f, nil); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("got %v", err)
	}
}

func TestReadCapped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big")
	os.WriteFile(p, bytes.Repeat([]byte("x"), 2048), 0o644)
	if _, err := ReadCapped(p, 1024, "a result"); err == nil || !strings.Contains(err.Error(), "too large: more than 1 KiB at byte offset 1024") {
		t.Fatalf("got %v", err)
	}
	if _, err := ReadCapped(dir, 1024, "a result"); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("got %v", err)
	}
	if _, err := ReadCapped("/dev/zero", 1<<16, "a result"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("/dev/zero: got %v", err)
	}
}

func TestDecodeJSON(t *testing.T) {
	var v map[string]any
	for _, c := range []struct{ in, want string }{
		{`{"a": 1}`, ""},
		{"{\"a\": 1}\n  \n", ""},
		{"{\"a\": 1}\n{\"b\": 2}", "f:2:1: text after the JSON value"},
		{"{\"a\": 1} x", "f:1:10: text after the JSON value"},
		{"{\"a\":\n  tru}", "f:2:"},
		{`{"a": `, "ends too early"},
		{``, "empty file"},
	} {
		err := DecodeJSON("f", []byte(c.in), &v)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("DecodeJSON(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestDescriptorPathsWrittenThrough(t *testing.T) {
	for _, p := range []string{"-", "/dev/stdout", "/dev/fd/1"} {
		if tg, err := resolve(p); err != nil || tg.kind != kindStdout {
			t.Errorf("%s: %+v %v", p, tg, err)
		}
	}
	for _, p := range []string{"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"} {
		if tg, err := resolve(p); err != nil || tg.kind != kindThrough {
			t.Errorf("%s: %+v %v", p, tg, err)
		}
	}
	var b bytes.Buffer
	if err := WriteFile("/dev/stdout", []byte("to stdout"), &b); err != nil || b.String() != "to stdout" {
		t.Fatalf("%q %v", b.String(), err)
	}
}

func TestDanglingSymlinkCreatesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.json")
	os.Symlink("new.json", link)
	if err := WriteFile(link, []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new.json")); string(b) != "x" {
		t.Fatalf("target: %q", b)
	}
}

// TestReplaceDirSubfolders: names in subfolders ("tts/x.json") are written
// into a new folder and replaced in an existing one, and a file in the way
// of a subfolder is refused before anything is rendered.
func TestReplaceDirSubfolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	names := []string{"a.txt", "tts/b.json", "cards/c/d.png"}
	render := func(body string) func(tmp string) error {
		return func(tmp string) error {
			for _, n := range names {
				p := filepath.Join(tmp, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					return err
				}
			}
			return nil
		}
	}
	for _, body := range []string{"one", "two"} { // new, then existing
		if err := ReplaceDir(dir, names, render(body)); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if data, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n))); string(data) != body {
				t.Errorf("%s holds %q, want %q", n, data, body)
			}
		}
	}
	os.RemoveAll(filepath.Join(dir, "tts"))
	os.WriteFile(filepath.Join(dir, "tts"), []byte("mine"), 0o644)
	rendered := false
	err := ReplaceDir(dir, names, func(string) error { rendered = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "in the way") || rendered {
		t.Errorf("a file in the way of a subfolder: err %v, rendered %v", err, rendered)
	}
}

// TestForeignSymlinkRefused: a link that another user planted (in a shared,
// sticky folder, say) is not followed, so it cannot choose which of our
// files is replaced; the file it points at is left alone.
func TestForeignSymlinkRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a link owned by another user needs root")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	os.WriteFile(victim, []byte("mine"), 0o644)
	link := filepath.Join(dir, "out.json")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Skip("cannot chown a link here:", err)
	}
	err := WriteFile(link, []byte("result"), nil)
	if err == nil || !strings.Contains(err.Error(), "symbolic link of another user") {
		t.Fatalf("WriteFile through a foreign link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Fatalf("the file behind a foreign link was replaced: %q", b)
	}
}

// TestInterruptedSwapKept: a run killed between the renames of its swap
// leaves the old files in its temporary's old/ folder; they are the only
// copy, so no later run removes them, and writing into the folder is
// refused with a message that says where they are.
func TestInterruptedSwapKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	os.Mkdir(dir, 0o755)
	// A temporary of a process that is gone (pid 1 << 22 is above Linux's
	// pid_max default), with an old file parked in it.
	tmp := filepath.Join(dir, "."+dirTempBase+tempMarker+strconv.Itoa(1<<22)+"-dead")
	os.MkdirAll(filepath.Join(tmp, swapOld), 0o700)
	os.WriteFile(filepath.Join(tmp, swapOld, "summary.md"), []byte("the old summary"), 0o644)
	err := ReplaceDir(dir, []string{"summary.md"}, func(string) error { t.Fatal("rendered although refused"); return nil })
	if err == nil || !strings.Contains(err.Error(), filepath.Join(tmp, swapOld)) {
		t.Fatalf("ReplaceDir over an interrupted swap: %v", err)
	}
	CleanStale(dir, dirTempBase)
	if b, _ := os.ReadFile(filepath.Join(tmp, swapOld, "summary.md")); string(b) != "the old summary" {
		t.Fatal("the old files of an interrupted swap were removed")
	}
	// Without parked files the temporary is stale and goes.
	os.RemoveAll(filepath.Join(tmp, swapOld))
	CleanStale(dir, dirTempBase)
	if _, err := os.Stat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a stale temporary without old files was kept")
	}
}

// TestPartialBesideLinkedTarget: --out reached through a link to another
// folder still gets its partial result beside the file itself, never
// dropped.
func TestPartialBesideLinkedTarget(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	os.Mkdir(real, 0o755)
	os.WriteFile(filepath.Join(real, "out.json"), []byte("complete"), 0o644)
	os.Symlink(real, filepath.Join(root, "link"))
	o, err := Create(filepath.Join(root, "link", "out.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("partial"))
	if err := o.CommitAs(PartialName(o.Path())); err != nil {
		t.Fatalf("CommitAs beside the linked target: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "out.partial.json")); string(b) != "partial" {
		t.Fatalf("partial result %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "out.json")); string(b) != "complete" {
		t.Fatalf("the complete file became %q", b)
	}
}

func TestSame(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	os.WriteFile(a, nil, 0o644)
	os.Link(a, filepath.Join(dir, "hard.json"))
	os.Symlink(".", filepath.Join(dir, "here"))
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{a, filepath.Join(dir, ".", "a.json"), true},
		{a, filepath.Join(dir, "hard.json"), true},
		{a, filepath.Join(dir, "here", "a.json"), true},
		{filepath.Join(dir, "new.json"), filepath.Join(dir, "here", "new.json"), true},
		{a, filepath.Join(dir, "b.json"), false},
		{Stdout, Stdout, true},
	} {
		if got := Same(c.x, c.y); got != c.want {
			t.Errorf("Same(%q, %q) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestCheckDescriptorPath: a descriptor that is not open fails the check
// before any work, not at the first write.
func TestCheckDescriptorPath(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	if err := Check("/dev/fd/987"); err == nil {
		t.Fatal("Check(/dev/fd/987) passed although no such descriptor is open")
	}
	if err := Check("/dev/stderr"); err != nil {
		t.Fatalf("Check(/dev/stderr): %v", err)
	}
}

// TestWriteProtectedRefused: a file of ours whose write permission its owner
// took away is neither replaced nor swapped in a report folder.
func TestWriteProtectedRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keep.json")
	if err := os.WriteFile(p, []byte("kept"), 0o444); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{Check(p), CheckDir(dir, []string{"keep.json"}), WriteFile(p, []byte("new"), nil)} {
		if err == nil || !strings.Contains(err.Error(), "write-protected (mode 0444)") {
			t.Errorf("got %v", err)
		}
	}
	if _, err := Create(p, nil); err == nil {
		t.Error("Create succeeded")
	}
	if b, _ := os.ReadFile(p); string(b) != "kept" {
		t.Fatalf("the file was replaced: %q", b)
	}
	os.Chmod(p, 0o644)
	if err := WriteFile(p, []byte("new"), nil); err != nil {
		t.Fatal(err)
	}
}

// TestFIFOWithoutReaderRefused: opening a FIFO nobody reads waits at most
// fifoWait, then refuses it (it used to block without limit); a reader
// that comes meanwhile is served.
func TestFIFOWithoutReaderRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	defer func(w time.Duration) { fifoWait = w }(fifoWait)
	fifoWait = 300 * time.Millisecond
	for _, f := range []func() error{
		func() error { return Check(p) },
		func() error { _, err := Create(p, nil); return err },
		func() error { return WriteFile(p, []byte("x"), nil) },
	} {
		start := time.Now()
		err := f()
		if err == nil || !strings.Contains(err.Error(), "a FIFO that nobody reads") {
			t.Errorf("got %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("waited %v", d)
		}
	}
	fifoWait = time.Minute
	got := make(chan []byte)
	go func() {
		time.Sleep(100 * time.Millisecond)
		b, _ := os.ReadFile(p)
		got <- b
	}()
	if err := WriteFile(p, []byte("late reader"), nil); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "late reader" {
		t.Fatalf("read %q", b)
	}
}

// TestCheckKeepsFIFOOpen: Check opens a FIFO to see that it has a reader
// and keeps it open for Create — closing it would end the reader's input
// before the output is written.
func TestCheckKeepsFIFOOpen(t *testing.T) {
	_, p, got := checkedFIFOWithReader(t)
	time.Sleep(50 * time.Millisecond) // a reader told "end of input" now would have returned
	if err := WriteFile(p, []byte("after the check"), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if string(b) != "after the check" {
			t.Fatalf("read %q", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing arrived")
	}
}

// TestPartialPathCheckedFirst: the name an interrupted run's partial result
// goes to (NAME.partial.json) is checked with the output itself, before any
// work: a folder, a write-protected file or a link out of the folder there
// would lose the partial result after the games.
func TestPartialPathCheckedFirst(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(p string)
		msg  string
	}{
		{"folder", func(p string) { os.Mkdir(p, 0o755) }, "is a folder"},
		{"write-protected", func(p string) { os.WriteFile(p, nil, 0o444) }, "write-protected"},
		{"link elsewhere", func(p string) { os.Symlink(filepath.Join(t.TempDir(), "x.json"), p) }, "a link out of the folder"},
		{"fifo", func(p string) { syscall.Mkfifo(p, 0o600) }, "not a regular file"},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "r.json")
		c.make(filepath.Join(dir, "r.partial.json"))
		for i, err := range []error{Check(out), func() error { _, err := Create(out, nil); return err }()} {
			if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "partial result") {
				t.Errorf("%s, %d: %v", c.name, i, err)
			}
		}
	}
	// A partial result of ours, or none: fine.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "r.partial.json"), nil, 0o644)
	if err := Check(filepath.Join(dir, "r.json")); err != nil {
		t.Fatal(err)
	}
}

// TestReplaceKeepsGroup: replacing a file keeps its group, as its mode.
func TestReplaceKeepsGroup(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "shared.json")
	os.WriteFile(p, []byte("old"), 0o640)
	gid := -1
	groups, _ := os.Getgroups()
	for _, g := range append(groups, 65534) {
		if g != os.Getgid() && os.Chown(p, -1, g) == nil {
			gid = g
			break
		}
	}
	if gid < 0 {
		t.Skip("no other group to give the file")
	}
	for _, write := range []func() error{
		func() error { return WriteFile(p, []byte("new"), nil) },
		func() error {
			o, err := Create(p, nil)
			if err != nil {
				return err
			}
			o.Write([]byte("partial"))
			return o.CommitAs(PartialName(p))
		},
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{p, PartialName(p)} {
		st, _ := os.Stat(f)
		if g := st.Sys().(*syscall.Stat_t).Gid; int(g) != gid || st.Mode().Perm() != 0o640 {
			t.Errorf("%s: group %d mode %v, want %d 0640", filepath.Base(f), g, st.Mode().Perm(), gid)
		}
	}
}
