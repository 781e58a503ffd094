package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestCLIMisuse is the table of issue 14: every misuse of a count flag, a
// bot or faction list or an output path, with the exit code of the one rule
// (malformed → 2, well-formed but unsatisfiable → 1) and the message. The
// runs asked for are huge, so a check made after playing would hang the
// test rather than pass it.
func TestCLIMisuse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	os.Symlink(".", filepath.Join(dir, "dirlink"))
	huge := []string{"simulate", "--players", "starfleet,klingon", "--games", "1000000000"}
	// Rulesets the commands that play must refuse before any game.
	tiny, typo := filepath.Join(dir, "tiny"), filepath.Join(dir, "typo")
	os.Mkdir(tiny, 0o755)
	os.WriteFile(filepath.Join(tiny, "rules.yaml"), tinyDefault["rules.yaml"].Data, 0o644)
	os.Mkdir(typo, 0o755)
	os.WriteFile(filepath.Join(typo, "rules.yaml"), []byte("game: alphatatcics\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"games 2^62", []string{"simulate", "--games", "4611686018427387904", "--json"}, 2, "--games must be at least 1 and at most 1000000000000, got 4611686018427387904"},
		{"games wrapping to 2", []string{"simulate", "--games", "3074457345618258603"}, 2, "--games must be at least 1 and at most"},
		{"games 0", []string{"simulate", "--games", "0"}, 2, "--games must be at least 1"},
		{"games negative", []string{"simulate", "--games", "-5"}, 2, "got -5"},
		{"games not a number", []string{"simulate", "--games", "lots"}, 2, `--games must be a whole number, got "lots"`},
		{"games beyond int64", []string{"simulate", "--games", "99999999999999999999"}, 2, `--games "99999999999999999999" is out of range`},
		{"workers huge", []string{"simulate", "--workers", "100000000"}, 2, "--workers must be at least 0 and at most 4096"},
		{"min-sample negative", []string{"simulate", "--min-sample", "-1"}, 2, "--min-sample must be at least 0"},
		{"shard n huge", []string{"simulate", "--shard", "1/2000000"}, 2, "k/n needs 1 <= k <= n <= 1000000"},
		{"shard k beyond n", []string{"simulate", "--shard", "3/2"}, 2, "invalid --shard"},
		{"report games huge", []string{"report", "--out", filepath.Join(dir, "r"), "--games", "4611686018427387904"}, 2, "--games must be at least 1 and at most"},
		{"report impact-games 0", []string{"report", "--out", filepath.Join(dir, "r"), "--impact-games", "0"}, 2, "--impact-games must be at least 1"},
		{"ladder games huge", []string{"ladder", "--games", "4611686018427387904"}, 2, "--games must be at least 1 and at most"},
		{"ladder workers negative", []string{"ladder", "--workers", "-1"}, 2, "--workers must be at least 0"},
		{"impact games huge", []string{"impact", "--bots", "greedy", "--games", "4611686018427387904"}, 2, "--games must be at least 1 and at most"},
		{"ismcts iterations 0", []string{"simulate", "--bots", "ismcts:iters=0"}, 2, "ismcts iters must be a whole number from 1 to 10000000"},
		{"ismcts iterations huge", []string{"simulate", "--bots", "ismcts:iters=99999999999"}, 2, "ismcts iters must be"},
		{"empty bots", []string{"simulate", "--players", "starfleet,klingon", "--bots", ""}, 2, "bots:"},
		{"empty players", []string{"simulate", "--players", ""}, 2, `--players "": empty faction name`},
		{"unknown bot", []string{"play", "--players", "starfleet,klingon", "--bots", "mcts"}, 2, `unknown bot "mcts"`},
		{"three bots for two seats", []string{"simulate", "--players", "starfleet,klingon", "--bots", "random,random,random"}, 1, "names 3 bots for a lineup of 2 players"},
		{"three bots for two seats in play", []string{"play", "--players", "starfleet,klingon", "--bots", "random,random,random"}, 1, "names 3 bots for 2 players"},
		{"one faction", []string{"simulate", "--players", "starfleet"}, 1, "names 1 faction; the rules allow 2 to 4 players"},
		{"unknown faction", []string{"simulate", "--players", "starfleet,klingons"}, 1, `unknown faction "klingons"; did you mean "klingon"?`},
		{"out in a missing folder", append(huge, "--out", "/nonexistent/x.json"), 1, "/nonexistent/x.json: the folder /nonexistent does not exist"},
		{"out is a folder", append(huge, "--out", dir), 1, "is a folder, not a file"},
		{"games-out is a folder", append(huge, "--games-out", dir), 1, "is a folder, not a file"},
		{"games-out in a missing folder", append(huge, "--games-out", "/nonexistent/g.jsonl"), 1, "does not exist"},
		{"report out is a file", []string{"report", "--out", file, "--games", "1000000000"}, 1, "exists and is not a folder"},
		{"impact out in a missing folder", []string{"impact", "--bots", "greedy", "--games", "1000000000", "--out", "/nonexistent/i.json"}, 1, "does not exist"},
		{"merge out is a folder", []string{"merge", "--out", dir, "/dev/zero"}, 1, "is a folder, not a file"},
		{"merge of /dev/zero", []string{"merge", "/dev/zero"}, 1, "/dev/zero: too large: more than 64 MiB"},
		{"merge of a folder", []string{"merge", dir}, 1, "is a folder, not a 'cardlab simulate --json' result"},
		{"report from /dev/zero", []string{"report", "--from", "/dev/zero", "--out", filepath.Join(dir, "r2")}, 1, "too large"},
		{"score of /dev/zero", []string{"score", "/dev/zero"}, 1, "too large: more than 1 MiB"},
		{"another game's ruleset", append(huge, "--rules", tiny), 1, `unknown player "starfleet" (valid: north, south)`},
		{"another game's ruleset in report", []string{"report", "--rules", tiny, "--bots", "random", "--out", filepath.Join(dir, "r"), "--games", "1000000000"}, 1, "cmdtest: not playable"},
		{"another game without strong", []string{"report", "--rules", tiny, "--bots", "strong", "--out", filepath.Join(dir, "r")}, 2, `bots: unknown bot "strong" for Command Test (its bots: ismcts, random)`},
		// Without --bots a game lacking strong plays its default bot
		// (here random), so the run gets as far as the game.
		{"another game without --bots", []string{"report", "--rules", tiny, "--out", filepath.Join(dir, "r2")}, 1, "cmdtest: not playable"},
		{"unknown game in rules.yaml", append(huge, "--rules", typo), 1, `rules.yaml:1:7: unknown game "alphatatcics"; did you mean "alphatactics"?`},
		{"init unknown game", []string{"init", "--game", "goofspeil", filepath.Join(dir, "g")}, 2, `invalid --game: unknown game "goofspeil"`},
		{"same out and games-out", []string{"simulate", "--out", file, "--games-out", file}, 2, "name the same file"},
		{"same file spelled twice", []string{"simulate", "--out", file, "--games-out", filepath.Join(dir, ".", "file.json")}, 2, "name the same file"},
		{"same new file through a link", []string{"simulate", "--out", filepath.Join(dir, "new.json"), "--games-out", filepath.Join(dir, "dirlink", "new.json")}, 2, "name the same file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("%v: exit %d, want %d with %q; stderr:\n%.600s", tt.args, code, tt.code, tt.msg, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %.200s", stdout)
			}
			if code == 1 && strings.Contains(stderr, "Usage:") {
				t.Error("usage printed for an error that is not a usage error")
			}
		})
	}
	if b, _ := os.ReadFile(file); string(b) != "{}" {
		t.Error("a refused run touched an existing file")
	}
	if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
		t.Error("a refused report made its folder")
	}
	if _, err := os.Stat(filepath.Join(dir, "g")); err == nil {
		t.Error("a refused init made its folder")
	}
}

// mknodDevice makes a character device like /dev/null in dir, or skips.
func mknodDevice(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "n")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a character device (mknod: %v): run as root to test output to devices", err)
	}
	return p
}

// TestOutputToCharacterDevice: `--out n` where n is a device (the issue's
// `mknod n c 1 3`) writes through it and leaves it a device.
func TestOutputToCharacterDevice(t *testing.T) {
	dir := t.TempDir()
	dev := mknodDevice(t, dir)
	for _, args := range [][]string{
		{"simulate", "--players", "starfleet,klingon", "--games", "5", "--json", "--out", dev, "--games-out", dev + "x"},
		{"simulate", "--players", "starfleet,klingon", "--games", "5", "--json", "--games-out", dev},
	} {
		os.Remove(dev + "x")
		code, _, stderr := cardlab(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		st, err := os.Lstat(dev)
		if err != nil || st.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%v: the device became %v (%v)", args, st.Mode(), err)
		}
	}
	s1 := filepath.Join(dir, "s1.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "4", "--json", "--out", s1); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := cardlab(t, "merge", "--json", "--out", dev, s1); code != 0 {
		t.Fatalf("merge --out device: %s", stderr)
	}
	if st, _ := os.Lstat(dev); st.Mode()&fs.ModeCharDevice == 0 {
		t.Fatal("merge replaced the device")
	}
}

// TestOutputToFIFO: `--out fifo` streams the result to the reader and
// leaves the FIFO in place.
func TestOutputToFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "5", "--json", "--out", fifo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	select {
	case b := <-got:
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || m["games"] != 5.0 {
			t.Fatalf("read from the FIFO: %v %.200s", err, b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v", err)
	}
}

// TestOutputThroughSymlinkKeepsMode: a symbolic link is followed and its
// target replaced, keeping the target's mode.
func TestOutputThroughSymlinkKeepsMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink("real.json", link)
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "3", "--json", "--out", link); code != 0 {
		t.Fatal(stderr)
	}
	st, _ := os.Lstat(link)
	rs, _ := os.Stat(real)
	if st.Mode()&fs.ModeSymlink == 0 || rs.Mode().Perm() != 0o600 {
		t.Fatalf("link %v, target mode %v", st.Mode(), rs.Mode().Perm())
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(`"games": 3`)) {
		t.Fatalf("target holds %.100s", b)
	}
}

// TestMergeCorruptShardFiles: the file-level corruptions (text after the
// JSON, an edited count) and partial shards, which follow simulate's rule:
// the partial result is written beside --out and the exit status is 1.
func TestMergeCorruptShardFiles(t *testing.T) {
	dir := t.TempDir()
	shard := func(k string) string {
		f := filepath.Join(dir, "s"+k[:1]+".json")
		if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "6", "--json", "--shard", k, "--out", f); code != 0 {
			t.Fatal(stderr)
		}
		return f
	}
	s1, s2 := shard("1/2"), shard("2/2")
	data, _ := os.ReadFile(s2)
	variant := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	trailing := variant("trailing.json", append(bytes.Clone(data), "\n{\"games\": 1}\n"...))
	edited := variant("edited.json", bytes.Replace(data, []byte(`"games": 3,`), []byte(`"games": 30,`), 1))
	var m map[string]any
	json.Unmarshal(data, &m)
	m["partial"] = true
	b, _ := json.Marshal(m)
	partialEdit := variant("partial-edit.json", b)
	for _, c := range []struct{ name, file, msg string }{
		{"text after the JSON", trailing, "text after the JSON value"},
		{"edited count", edited, "checksum does not match"},
		{"partial flag set by hand", partialEdit, "checksum does not match"},
	} {
		out := filepath.Join(dir, "m.json")
		code, _, stderr := cardlab(t, "merge", "--json", "--out", out, s1, c.file)
		if code != 1 || !strings.Contains(stderr, c.msg) {
			t.Errorf("%s: exit %d: %s", c.name, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", c.name, out)
		}
	}
}

// TestReportFailureLeavesOldFolder is the case: a report folder with
// summary.md replaced by a folder. The report is refused before anything is
// written, and the old files stay as they were.
func TestReportFailureLeavesOldFolder(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "20", "--json", "--out", res); code != 0 {
		t.Fatal(stderr)
	}
	target := filepath.Join(dir, "T")
	if code, _, stderr := cardlab(t, "report", "--from", res, "--out", target); code != 0 {
		t.Fatal(stderr)
	}
	before := dirFiles(t, target)
	os.Remove(filepath.Join(target, "summary.md"))
	os.Mkdir(filepath.Join(target, "summary.md"), 0o755)
	delete(before, "summary.md")
	code, _, stderr := cardlab(t, "report", "--from", res, "--out", target)
	if code != 1 || !strings.Contains(stderr, "summary.md is a folder") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after := dirFiles(t, target)
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("files now %d, before %d", len(after), len(before))
	}
	es, _ := os.ReadDir(target)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary left: %s", e.Name())
		}
	}
}

// The interrupt tests run cardlab as a child process: the test binary
// re-executed with CARDLAB_TEST_MAIN set runs Main.
func TestMain(m *testing.M) {
	if os.Getenv("CARDLAB_TEST_MAIN") == "1" {
		os.Exit(Main())
	}
	os.Exit(m.Run())
}

// process is cardlab running as a child process.
type process struct {
	cmd    *exec.Cmd
	stderr lockedBuffer
	exited chan struct{} // closed when it has exited
}

// lockedBuffer is a bytes.Buffer the child's output is copied into while
// the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func cardlabProcess(t *testing.T, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(os.Args[0], args...), exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "CARDLAB_TEST_MAIN=1")
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.exited })
	return p
}

// waitFor waits for the process to exit, at most d; it returns the exit
// code and how long it took, or fails.
func (p *process) waitFor(t *testing.T, d time.Duration) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode(), time.Since(start)
	case <-time.After(d):
		t.Fatalf("still running %v after the signal", d)
	}
	return 0, 0
}

// TestInterruptStopsISMCTSAtOnce: Ctrl-C during games of an ISMCTS bot with
// a budget of minutes per decision stops the process within 2 s; the
// partial result goes beside the complete --out file, which keeps its
// content.
func TestInterruptStopsISMCTSAtOnce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	os.WriteFile(out, []byte("complete"), 0o644)
	games := filepath.Join(dir, "g.jsonl")
	p := cardlabProcess(t, "simulate", "--players", "starfleet,klingon", "--bots", "ismcts:iters=10000000",
		"--games", "4", "--workers", "2", "--json", "--out", out, "--games-out", games)
	time.Sleep(1500 * time.Millisecond) // well into the first decisions' searches
	p.cmd.Process.Signal(os.Interrupt)
	code, took := p.waitFor(t, 2*time.Second)
	stderr := p.stderr.String()
	t.Logf("exited %v after SIGINT", took)
	if code != 1 || !strings.Contains(stderr, "interrupted after 0 of 4 games") ||
		!strings.Contains(stderr, "the partial result is in "+filepath.Join(dir, "r.partial.json")) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "complete" {
		t.Errorf("the complete result was replaced: %.100s", b)
	}
	var m map[string]any
	b, err := os.ReadFile(filepath.Join(dir, "r.partial.json"))
	if err != nil || json.Unmarshal(b, &m) != nil || m["partial"] != true {
		t.Errorf("r.partial.json: %v %.200s", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.partial.jsonl")); err != nil {
		t.Errorf("the games played: %v", err)
	}
	wantNoTemporaries(t, dir)
}

// waitForPlay waits until games are being recorded into a temporary of
// dir: by then the process handles Ctrl-C (on a loaded machine a fixed
// pause can end before it does, and the default action kills it).
func waitForPlay(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			if info, err := e.Info(); err == nil && strings.Contains(e.Name(), ".tmp-") && info.Size() > 0 {
				return
			}
		}
	}
	t.Fatal("no game was recorded within 30 s")
}

func wantNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary left: %s", e.Name())
		}
	}
}

// TestFIFOWithoutReaderEndsOnSignal: --out naming a FIFO nobody reads is
// waited for a few seconds before any game, then refused; a SIGTERM
// meanwhile ends the process at once. (It used to block for ever in the
// open after the games, deaf to signals.)
func TestFIFOWithoutReaderEndsOnSignal(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	for _, flag := range []string{"--out", "--games-out"} {
		p := cardlabProcess(t, "simulate", "--players", "starfleet,klingon", "--bots", "random",
			"--games", "1000000000", "--json", flag, fifo)
		time.Sleep(300 * time.Millisecond) // any moment will do: every state must end on the signal
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.waitFor(t, 3*time.Second)
		if ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() && ws.ExitStatus() != 143 && ws.ExitStatus() != 1 {
			t.Errorf("%s fifo: %v: %s", flag, ws, p.stderr.String())
		}
		if strings.Contains(p.stderr.String(), "stopping the games") {
			t.Errorf("%s fifo: games were played before the output was open: %s", flag, p.stderr.String())
		}
		wantNoTemporaries(t, dir)
	}
}

// TestMergePartialShardExitsOne: merging an interrupted shard writes the
// partial result beside --out and exits 1, the rule simulate follows.
func TestMergePartialShardExitsOne(t *testing.T) {
	dir := t.TempDir()
	s1 := filepath.Join(dir, "s1.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "6", "--json", "--shard", "1/2", "--out", s1); code != 0 {
		t.Fatal(stderr)
	}
	// Shard 2, interrupted before its first game (a cancelled context).
	s2 := filepath.Join(dir, "s2.json")
	cmd := NewCmdSimulate(&globalOptions{}, func(o *SimulateOptions) error {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		o.Context = ctx
		return simulateRun(o)
	})
	var out, errb bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs([]string{"--players", "starfleet,klingon", "--games", "6", "--json", "--shard", "2/2", "--out", s2})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "interrupted after 0 of 3 games") {
		t.Fatalf("interrupted shard: %v", err)
	}
	if _, err := os.Stat(s2); err == nil {
		t.Fatal("the partial shard went to the --out name")
	}
	partial := filepath.Join(dir, "s2.partial.json")
	m := filepath.Join(dir, "m.json")
	code, stdout, stderr := cardlab(t, "merge", "--json", "--out", m, s1, partial)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "some shards were interrupted: the partial result is in "+filepath.Join(dir, "m.partial.json")) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(m); err == nil {
		t.Error("a partial merge went to the --out name")
	}
	b, err := os.ReadFile(filepath.Join(dir, "m.partial.json"))
	if err != nil || !bytes.Contains(b, []byte(`"partial": true`)) {
		t.Fatalf("m.partial.json: %v", err)
	}
}

// TestSchemaOutRefusesFIFO: `schema --out` writes through the one folder
// writer — a FIFO in the way of a schema file is refused, never replaced.
func TestSchemaOutRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, rules.SchemaFile(rules.SchemaKinds[0]))
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	code, _, stderr := cardlab(t, "schema", "--out", dir)
	if code != 1 || !strings.Contains(stderr, "is a FIFO, not a file cardlab wrote") {
		t.Fatalf("schema --out over a FIFO: exit %d, stderr %q", code, stderr)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
}

// TestFileStringsNeverReachTheTerminalRaw is issue 24 item 11: merge's
// error messages printed shard strings (config.bots, tool_version holding
// "\e]0;…\a\e[2J") raw before any verification, and a ruleset name in a
// result whose checksum was recomputed reached the tables, as did bidi
// overrides. Whatever a file holds, cardlab's output holds no control
// character but newline and tab, and no bidi control.
func TestFileStringsNeverReachTheTerminalRaw(t *testing.T) {
	const evil = "\x1b]0;pwned\a\x1b[2J\u202eX\u009b2J\rY"
	dir := t.TempDir()
	shard := func(k string) string {
		f := filepath.Join(dir, "s"+k[:1]+".json")
		if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "6", "--json", "--shard", k, "--out", f); code != 0 {
			t.Fatal(stderr)
		}
		return f
	}
	s1, s2 := shard("1/2"), shard("2/2")
	// rewrite edits the result in file and renews its checksum, as a
	// forger would.
	rewrite := func(file, name string, edit func(r *analysis.Report)) string {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := analysis.DecodeReport(file, data)
		if err != nil {
			t.Fatal(err)
		}
		edit(r)
		r.Checksum = r.Sum()
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	clean := func(what, out string) {
		t.Helper()
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u202e' {
				t.Errorf("%s: %U reached the output: %q", what, r, out)
				return
			}
		}
	}
	for _, c := range []struct {
		name string
		edit func(r *analysis.Report)
		want int
	}{
		{"tool_version", func(r *analysis.Report) { r.ToolVersion = evil }, 1},
		{"config.bots", func(r *analysis.Report) { r.Config.Bots = []string{evil} }, 1},
		{"ruleset name", func(r *analysis.Report) { r.Ruleset.Name = evil }, 0},
	} {
		bad := rewrite(s2, "bad.json", c.edit)
		other := s1
		if c.want == 0 { // the same name on both shards: merged, printed
			other = rewrite(s1, "bad1.json", c.edit)
		}
		code, stdout, stderr := cardlab(t, "merge", other, bad)
		if code != c.want {
			t.Errorf("%s: exit %d, want %d: %s", c.name, code, c.want, stderr)
		}
		clean(c.name+" stdout", stdout)
		clean(c.name+" stderr", stderr)
		if !strings.Contains(stdout+stderr, `\u001b]0;pwned\u0007\u001b[2J\u202eX\u009b2J\u000dY`) {
			t.Errorf("%s: the string is not shown escaped:\n%s%s", c.name, stdout, stderr)
		}
	}
}

// TestFolderOutputsRefuseForeignSymlink: report, print, schema and init
// refuse a folder reached through another user's symbolic link (shared/rep
// → elsewhere), as file outputs do, and write nothing into its target.
func TestFolderOutputsRefuseForeignSymlink(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a link owned by another user needs root")
	}
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "4", "--json", "--out", res); code != 0 {
		t.Fatal(stderr)
	}
	target := filepath.Join(dir, "elsewhere")
	os.Mkdir(target, 0o755)
	link := filepath.Join(dir, "rep")
	os.Symlink(target, link)
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Skip("cannot chown a link here:", err)
	}
	for _, args := range [][]string{
		{"report", "--from", res, "--out", link},
		{"print", "--formats", "csv", "--out", link},
		{"schema", "--out", link},
		{"init", link},
	} {
		code, _, stderr := cardlab(t, args...)
		if code != 1 || !strings.Contains(stderr, "symbolic link of another user") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if es, _ := os.ReadDir(target); len(es) != 0 {
		t.Errorf("written into the link's target: %d entries", len(es))
	}
}
