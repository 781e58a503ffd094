package cards

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file is the game-neutral reading of a ruleset directory: every file
// listed and capped, each parsed as one YAML document holding a mapping,
// with syntax errors refined to the line and column a designer must edit,
// and typed access to mappings that reports unknown, duplicate and missing
// keys with "did you mean". A game's loader embeds a Reader and adds its own
// format on top (Alpha Tactics: load.go). Nothing here knows a game.

// Reader reads one ruleset directory and collects the problems found, each
// with its position, so that a load reports every mistake at once.
type Reader struct {
	fsys   fs.FS
	prefix string // prepended to file names in messages ("" for none)
	budget int    // remaining suggestion work (see suggestWithin)

	Errs    ErrorList
	Files   []string              // .yaml/.yml files in the directory, sorted (LayoutFile left out)
	Data    map[string][]byte     // their contents, when readable
	Roots   map[string]*yaml.Node // their top-level mappings, when usable (filled by the game's loader)
	Folders []string              // folders with YAML names, which are not files
}

// NewReader reads the ruleset directory that is fsys's root; prefix is
// prepended (with a slash) to file names in messages ("" for none).
func NewReader(fsys fs.FS, prefix string) *Reader {
	return &Reader{fsys: fsys, prefix: strings.TrimSuffix(prefix, "/"), budget: suggestBudget,
		Data: map[string][]byte{}, Roots: map[string]*yaml.Node{}}
}

// Budget is the load's remaining suggestion work, to share with a
// ParamDecoder.
func (r *Reader) Budget() *int { return &r.budget }

// MaxIDLen bounds ids (of factions, cards, targets, tags: whatever a game
// names), and MaxNameLen names (in characters): ids name files (print
// writes one PNG per card, and a file name has at most 255 bytes) and both
// head table columns.
const (
	MaxIDLen   = 64
	MaxNameLen = 100
)

// LayoutFile is the optional print layout of a ruleset (`cardlab print`,
// package printing). It is not part of the game: the loader skips it, so a
// layout change neither changes the ruleset's hash nor blocks a simulation.
const LayoutFile = "layout.yaml"

// MaxFileSize caps each ruleset file. The default set's largest file is under
// 10 KiB; the cap keeps a mistaken path (a log, an image) from exhausting
// memory.
const MaxFileSize = 1 << 20

// Display is file's name as messages show it: with the prefix, so that it
// can be opened from the shell that ran the command.
func (r *Reader) Display(file string) string {
	if r.prefix == "" {
		return file
	}
	return r.prefix + "/" + file
}

// DirName names the ruleset directory itself in messages.
func (r *Reader) DirName() string {
	if r.prefix == "" {
		return "."
	}
	return r.prefix
}

// Errorf records a problem at p (a displayed position, see At).
func (r *Reader) Errorf(p Pos, format string, args ...any) {
	r.Errs = append(r.Errs, &Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// CheckName reports a name longer than MaxNameLen characters at node n.
func (r *Reader) CheckName(file string, n *yaml.Node, what, name string) {
	if k := utf8.RuneCountInString(name); k > MaxNameLen {
		r.Errorf(r.At(file, n), "%s name %q is %d characters long, at most %d", what, Truncate(name), k, MaxNameLen)
	}
}

// At is the position of n in file for messages (file name as displayed).
func (r *Reader) At(file string, n *yaml.Node) Pos {
	return Pos{File: r.Display(file), Line: n.Line, Col: n.Column}
}

// FileErr reports a problem with a whole file.
func (r *Reader) FileErr(file, format string, args ...any) {
	r.Errorf(Pos{File: r.Display(file)}, format, args...)
}

// ModelPos is the position of n as stored in the model: relative to the
// ruleset directory, independent of where it was loaded from.
func ModelPos(file string, n *yaml.Node) Pos {
	return Pos{File: file, Line: n.Line, Col: n.Column}
}

// Has reports whether the directory holds the YAML file name.
func (r *Reader) Has(name string) bool {
	i := sort.SearchStrings(r.Files, name)
	return i < len(r.Files) && r.Files[i] == name
}

// IsYAMLName reports whether a directory entry is a ruleset file candidate
// (a .yaml or .yml name, in any case).
func IsYAMLName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml")
}

// ReadDir lists the directory and reads every YAML file in it (Files,
// Data), so that syntax errors in all files are reported together. It
// reports false, with the problem recorded, when the directory cannot be
// listed.
func (r *Reader) ReadDir() bool {
	entries, err := fs.ReadDir(r.fsys, ".")
	if err != nil {
		msg := "cannot read the ruleset directory"
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = "no such directory"
		case errors.Is(err, fs.ErrPermission):
			msg += ": permission denied"
		default:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				msg += ": " + pe.Err.Error()
			} else {
				msg += ": " + err.Error()
			}
		}
		r.Errorf(Pos{File: r.DirName()}, "%s", msg)
		return false
	}
	for _, e := range entries {
		if e.IsDir() && IsYAMLName(e.Name()) {
			r.Folders = append(r.Folders, e.Name())
		}
		if e.IsDir() || !IsYAMLName(e.Name()) || e.Name() == LayoutFile {
			continue
		}
		r.Files = append(r.Files, e.Name())
	}
	sort.Strings(r.Files)
	for _, name := range r.Files {
		if data, ok := r.readFile(name); ok {
			r.Data[name] = data
		}
	}
	return true
}

func (r *Reader) readFile(name string) ([]byte, bool) {
	info, err := fs.Stat(r.fsys, name)
	if err != nil {
		r.FileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	if !info.Mode().IsRegular() {
		r.FileErr(name, "not a regular file")
		return nil, false
	}
	f, err := r.fsys.Open(name)
	if err != nil {
		r.FileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		r.FileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	if len(data) > MaxFileSize {
		r.FileErr(name, "file is too large (more than %d KiB at byte offset %d); a ruleset file is a few KiB", MaxFileSize>>10, MaxFileSize)
		return nil, false
	}
	return data, true
}

func pathErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// HashFiles is the hex SHA-256 identifying a ruleset in results: over its
// files' names and contents, in name order, each followed by a NUL.
func HashFiles(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(files[name])
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ---------------------------------------------------------------------------
// YAML parsing

var (
	reYAMLLine   = regexp.MustCompile(`^line (\d+): (.*)$`)
	reYAMLAnchor = regexp.MustCompile(`^(?:unknown anchor '(.*)' referenced|anchor '(.*)' value contains itself)$`)
)

// Parse checks that data is a single YAML document holding a mapping and
// returns that mapping, or reports why not and returns nil.
func (r *Reader) Parse(name string, data []byte) (root *yaml.Node) {
	text := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(text)) == 0 {
		r.FileErr(name, "file is empty")
		return nil
	}
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		r.FileErr(name, "not a YAML text file (UTF-16 encoded; save it as UTF-8)")
		return nil
	}
	if e := CheckText(r.Display(name), data); e != nil {
		r.Errs = append(r.Errs, e)
		return nil
	}
	defer func() {
		// yaml.v3 reports most failures by panicking internally and
		// recovering; guard against any that escape.
		if v := recover(); v != nil {
			r.FileErr(name, "cannot parse YAML: %v", v)
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			r.FileErr(name, "file is empty") // only comments
		} else {
			r.syntaxError(name, data, err)
		}
		return nil
	}
	// One document per file: a second one would be silently ignored by a
	// plain decoder, which hides edits. An empty trailing "---" is harmless.
	for i := 0; ; i++ {
		var extra yaml.Node
		err := dec.Decode(&extra)
		if err == io.EOF {
			break
		}
		if err != nil {
			r.syntaxError(name, data, err)
			return nil
		}
		if len(extra.Content) > 0 && !IsEmptyNode(extra.Content[0]) {
			r.Errorf(r.At(name, &extra), "a second YAML document starts here; a ruleset file holds one document (remove the \"---\" line)")
			return nil
		}
		if i > 1000 {
			// Reading on could take long; a ruleset file never has
			// a thousand "---" lines.
			r.Errorf(r.At(name, &extra), "more than 1000 YAML documents; a ruleset file holds one document")
			return nil
		}
	}
	if len(doc.Content) == 0 || IsEmptyNode(doc.Content[0]) {
		r.FileErr(name, "file is empty")
		return nil
	}
	root = doc.Content[0]
	if !r.checkAliases(name, root) {
		return nil
	}
	if e := CheckStrings(r.Display(name), root); e != nil {
		r.Errs = append(r.Errs, e)
		return nil
	}
	if root.Kind != yaml.MappingNode {
		r.Errorf(r.At(name, root), "expected a mapping of keys at the top of the file, got %s", Describe(root))
		return nil
	}
	return root
}

// IsEmptyNode reports whether n is an empty value ("key:" with nothing
// after it), which YAML reads as null.
func IsEmptyNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" && n.Value == ""
}

// checkAliases rejects aliases anywhere in the tree. Rulesets have no use for
// them, and refusing them rules out alias bombs and nodes that appear in two
// places under one position. Only the first alias is reported: one is enough
// to explain the rule.
func (r *Reader) checkAliases(name string, root *yaml.Node) bool {
	var first *yaml.Node
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.AliasNode {
			if first == nil || n.Line < first.Line || n.Line == first.Line && n.Column < first.Column {
				first = n
			}
			continue
		}
		stack = append(stack, n.Content...)
	}
	if first != nil {
		r.Errorf(r.At(name, first), "aliases (*%s) are not supported; write the value out in full", Truncate(first.Value))
		return false
	}
	return true
}

// syntaxError reports a yaml.v3 parse error as file:line. yaml.v3 omits the
// line for errors on the first line and gives the start of the enclosing
// collection (zero-based) for parser errors, so the position is refined here.
func (r *Reader) syntaxError(name string, data []byte, err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := reYAMLAnchor.FindStringSubmatch(msg); m != nil {
		anchor := m[1] + m[2]
		line, col := findAlias(data, anchor)
		r.Errorf(Pos{File: r.Display(name), Line: line, Col: col}, "aliases (*%s) are not supported; write the value out in full", Truncate(anchor))
		return
	}
	line := 0
	if m := reYAMLLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	parserErr := isParserError(msg)
	if !parserErr && line == 0 {
		line = 1
	}
	if parserErr {
		line = refineLine(data, line+1, msg)
	}
	// A tab in the indentation is the commonest cause and yaml.v3 words it
	// obscurely ("found character that cannot start any token"), often a
	// line early: point at the tab itself.
	if tl, tc := findIndentTab(data); tl > 0 && tl <= line+1 {
		r.Errorf(Pos{File: r.Display(name), Line: tl, Col: tc}, "tab character in indentation; YAML indents with spaces only")
		return
	}
	r.Errorf(Pos{File: r.Display(name), Line: line}, "syntax error: %s%s", msg, syntaxHints[msg])
}

// syntaxHints translate yaml.v3's messages for the mistakes designers make
// most often.
var syntaxHints = map[string]string{
	"did not find expected ',' or ']'":               ` (is a "[" list left open?)`,
	"did not find expected ',' or '}'":               ` (is a "{" mapping left open?)`,
	"did not find expected '-' indicator":            " (check the indentation of this line)",
	"did not find expected key":                      " (check the indentation of this line)",
	"mapping values are not allowed in this context": ` (quote a value that contains ": ")`,
	"could not find expected ':'":                    ` (a key without ":"?)`,
	"found unexpected end of stream":                 " (is a quote left open?)",
	"found character that cannot start any token":    " (quote values that start with @ or `)",
}

func isParserError(msg string) bool {
	return strings.HasPrefix(msg, "did not find expected") ||
		strings.HasPrefix(msg, "found undefined tag handle") ||
		strings.HasPrefix(msg, "found duplicate %") ||
		strings.HasPrefix(msg, "found incompatible YAML document")
}

// refineLine finds the first line at or after from whose prefix of the file
// fails with the same parser message: that is where the parser gave up,
// while yaml.v3 reports where the enclosing collection began.
func refineLine(data []byte, from int, msg string) int {
	if from < 1 {
		from = 1
	}
	budget := 8 << 20 // bytes re-parsed at most; beyond that, keep yaml's line
	lines := bytes.SplitAfter(data, []byte("\n"))
	end := 0
	for i := 0; i < from-1 && i < len(lines); i++ {
		end += len(lines[i])
	}
	for k := from; k <= len(lines); k++ {
		end += len(lines[k-1])
		if budget -= end; budget < 0 {
			break
		}
		if parseMessage(data[:end]) == msg {
			return k
		}
	}
	return from
}

// parseMessage returns the parse error message for data, without the "yaml:"
// and "line N:" prefixes, or "" if it parses.
func parseMessage(data []byte) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = ""
		}
	}()
	var n yaml.Node
	err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&n)
	if err == nil || err == io.EOF {
		return ""
	}
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if m := reYAMLLine.FindStringSubmatch(msg); m != nil {
		msg = m[2]
	}
	return msg
}

// findIndentTab returns the position of the first tab in the leading
// whitespace of a line that has content.
func findIndentTab(data []byte) (line, col int) {
	for i, ln := range bytes.Split(data, []byte("\n")) {
		tab := -1
		j := 0
		for ; j < len(ln) && (ln[j] == ' ' || ln[j] == '\t'); j++ {
			if ln[j] == '\t' && tab < 0 {
				tab = j
			}
		}
		rest := bytes.TrimSpace(ln[j:])
		if tab >= 0 && len(rest) > 0 && rest[0] != '#' {
			return i + 1, tab + 1
		}
	}
	return 0, 0
}

// findAlias locates "*anchor" in data for errors yaml.v3 reports without a
// position.
func findAlias(data []byte, anchor string) (line, col int) {
	i := bytes.Index(data, []byte("*"+anchor))
	if i < 0 {
		return 0, 0
	}
	line = 1 + bytes.Count(data[:i], []byte("\n"))
	col = 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:i], '\n')+1:i])
	return line, col
}

// ---------------------------------------------------------------------------
// Typed access to mappings

// Map is a decoded YAML mapping with its keys checked.
type Map struct {
	r    *Reader
	file string
	node *yaml.Node
	what string
	keys map[string]*yaml.Node
	vals map[string]*yaml.Node
	// suggested holds the allowed keys that some unknown key was taken for;
	// they are not also reported missing, since that is the same mistake.
	suggested map[string]bool
}

// Object reads the mapping n in file, reporting duplicate, malformed and unknown
// keys. It returns nil (after reporting) if n is not a mapping. what names
// the object in messages ("card \"sf-galaxy\""); allowed nil accepts any key.
func (r *Reader) Object(file string, n *yaml.Node, what string, allowed []string) *Map {
	if n.Kind != yaml.MappingNode {
		r.Errorf(r.At(file, n), "%s: expected a mapping of keys, got %s", what, Describe(n))
		return nil
	}
	m := &Map{r: r, file: file, node: n, what: what, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}, suggested: map[string]bool{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			r.Errorf(r.At(file, k), "expected a key name, got %s", Describe(k))
			continue
		}
		if prev, dup := m.keys[k.Value]; dup {
			r.Errorf(r.At(file, k), "duplicate key %q (first given at line %d)", Truncate(k.Value), prev.Line)
			continue
		}
		if allowed != nil && !slices.Contains(allowed, k.Value) {
			if s := r.Suggest(k.Value, allowed); s != "" {
				r.Errorf(r.At(file, k), "unknown key %q in %s, did you mean %q?", Truncate(k.Value), what, s)
				m.suggested[s] = true
			} else {
				r.Errorf(r.At(file, k), "unknown key %q in %s (allowed: %s)", Truncate(k.Value), what, strings.Join(allowed, ", "))
			}
			continue
		}
		m.keys[k.Value] = k
		m.vals[k.Value] = v
	}
	return m
}

// Require reports the keys that are missing.
func (m *Map) Require(keys ...string) {
	for _, k := range keys {
		if _, ok := m.vals[k]; !ok && !m.suggested[k] {
			m.r.Errorf(m.r.At(m.file, m.node), "missing required key %q in %s", k, m.what)
		}
	}
}

// Get is the value of key, nil when absent.
func (m *Map) Get(key string) *yaml.Node { return m.vals[key] }

// Key is the key node of key (nil when absent), to point at a key rather
// than its value.
func (m *Map) Key(key string) *yaml.Node { return m.keys[key] }

// Suggested reports whether some unknown key was taken for key: a loader
// then does not also report key as missing, since that is the same mistake.
func (m *Map) Suggested(key string) bool { return m.suggested[key] }

// What names the mapping in messages.
func (m *Map) What() string { return m.what }

// Str reads a string value. Strings must be YAML strings: an unquoted 1.2 is
// a number, and accepting it would let "1.10" silently become "1.1".
func (m *Map) Str(key string, allowEmpty bool) (string, bool) {
	n := m.vals[key]
	if n == nil {
		return "", false
	}
	return m.r.StrOf(m.file, n, key, allowEmpty)
}

// StrOf reads the string n (see StringValue), reporting problems in file.
func (r *Reader) StrOf(file string, n *yaml.Node, key string, allowEmpty bool) (string, bool) {
	return StringValue(n, key, allowEmpty, r.Reporter(file))
}

// Reporter reports problems in file at a node.
func (r *Reader) Reporter(file string) func(*yaml.Node, string) {
	return func(n *yaml.Node, msg string) { r.Errorf(r.At(file, n), "%s", msg) }
}

// Int reads an integer in [lo, hi].
func (m *Map) Int(key string, lo, hi int) (int, bool) {
	n := m.vals[key]
	if n == nil {
		return 0, false
	}
	return m.r.IntOf(m.file, n, key, lo, hi)
}

// IntOf reads the integer n in [lo, hi], reporting problems in file.
func (r *Reader) IntOf(file string, n *yaml.Node, key string, lo, hi int) (int, bool) {
	return IntValue(n, key, lo, hi, r.Reporter(file))
}

// Strs reads a list of strings, returning the item nodes for positions.
func (m *Map) Strs(key string) ([]string, []*yaml.Node, bool) {
	n := m.vals[key]
	if n == nil {
		return nil, nil, false
	}
	if n.Kind != yaml.SequenceNode {
		m.r.Errorf(m.r.At(m.file, n), "%s: expected a list, got %s", key, Describe(n))
		return nil, nil, false
	}
	out := make([]string, 0, len(n.Content))
	nodes := make([]*yaml.Node, 0, len(n.Content))
	ok := true
	for _, item := range n.Content {
		s, good := m.r.StrOf(m.file, item, key, false)
		if !good {
			ok = false
			continue
		}
		out = append(out, s)
		nodes = append(nodes, item)
	}
	return out, nodes, ok
}

// Enum reads one of values (its index); label names the vocabulary in messages.
func (m *Map) Enum(key, label string, values []string) (int, bool) {
	n := m.vals[key]
	if n == nil {
		return 0, false
	}
	return m.r.EnumOf(m.file, n, key, label, values)
}

// EnumOf reads n as one of values, reporting problems in file.
func (r *Reader) EnumOf(file string, n *yaml.Node, key, label string, values []string) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		r.Errorf(r.At(file, n), "%s: expected one of %s, got %s", key, quoteList(values), Describe(n))
		return 0, false
	}
	for i, v := range values {
		if n.Value == v {
			return i, true
		}
	}
	r.Errorf(r.At(file, n), "unknown %s %q%s", label, Truncate(n.Value), r.HintFor(n.Value, values))
	return 0, false
}

// HintFor is a "did you mean" for a misspelt value, or else the allowed
// values when there are few enough to list.
func (r *Reader) HintFor(word string, values []string) string {
	if s := r.DidYouMean(word, values); s != "" {
		return s
	}
	if len(values) <= 8 {
		return " (expected one of " + quoteList(values) + ")"
	}
	return ""
}

// suggestBudget bounds the suggestion work of one load (see suggestWithin).
const suggestBudget = 50_000_000

// Suggest is the candidate word is most likely a misspelling of, or ""
// (see suggestWithin), within the load's budget.
func (r *Reader) Suggest(word string, candidates []string) string {
	return suggestWithin(word, candidates, &r.budget)
}

// DidYouMean is Suggest's answer formatted for appending to a message.
func (r *Reader) DidYouMean(word string, candidates []string) string {
	return didYouMeanWithin(word, candidates, &r.budget)
}
