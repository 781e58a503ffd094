package cards

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/effects"
)

// File names fixed by the format; deck file names come from rules.yaml.
const (
	rulesFile   = "rules.yaml"
	targetsFile = "targets.yaml"
)

// LayoutFile is the optional print layout of a ruleset (`cardlab print`,
// package printing). It is not part of the game: the loader skips it, so a
// layout change neither changes the ruleset's hash nor blocks a simulation.
const LayoutFile = "layout.yaml"

// maxFileSize caps each ruleset file. The default set's largest file is under
// 10 KiB; the cap keeps a mistaken path (a log, an image) from exhausting
// memory.
const maxFileSize = 1 << 20

// Value ranges fixed by the format (docs/ruleset-format.md).
const (
	maxPower       = 20
	maxVP          = 10
	maxPlanetBonus = 10
)

var (
	reFactionID = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	reCardID    = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	reColor     = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

// tieBreaks are the tie-breaks the rulebook knows.
var tieBreaks = []string{"planets"}

// Keys allowed in each kind of mapping, in the order of the format
// description (used for "allowed:" hints).
var (
	rulesKeys      = []string{"name", "version", "players", "hand_size", "targets_per_round", "cards_to_end", "deck_size", "rounds", "planet_bonus", "federation", "starting_faction", "tie_break", "affiliations", "factions"}
	playersKeys    = []string{"min", "max"}
	federationKeys = []string{"affiliation", "factions"}
	factionKeys    = []string{"id", "name", "color", "planets", "deck"}
	deckKeys       = []string{"faction", "cards"}
	cardKeys       = []string{"id", "name", "type", "kind", "power", "copies", "effect", "params", "text", "tags"}
	targetsKeys    = []string{"targets"}
	targetKeys     = []string{"id", "name", "type", "affiliation", "quadrant", "vp", "text", "bonuses"}
	bonusKeys      = []string{"effect", "params"}
)

// kindNames describe the effect kinds in messages, indexed by EffectKind.
var kindNames = []string{"no effect", "one-time", "permanent", "special", "scoring"}

// LoadDir loads the ruleset in directory dir on disk; messages name files as
// dir/file so that they can be opened from the shell that ran the command.
func LoadDir(dir string) (*Ruleset, error) {
	if dir == "" {
		dir = "."
	}
	prefix := filepath.Clean(dir)
	if prefix == "." {
		prefix = ""
	}
	return Load(os.DirFS(dir), filepath.ToSlash(prefix))
}

// Load reads a ruleset from fsys, whose root is the ruleset directory. prefix
// is prepended (with a slash) to file names in error messages ("" for none).
// It reports every problem it finds, as an ErrorList sorted by position, and
// returns a ruleset only when there are none: a partly valid ruleset would
// only move the failure into the engine.
func Load(fsys fs.FS, prefix string) (rs *Ruleset, err error) {
	l := &loader{fsys: fsys, prefix: strings.TrimSuffix(prefix, "/"), budget: suggestBudget}
	defer func() {
		// A designer's file must never crash the tool. Any panic is a loader
		// bug; turn it into a message that says so rather than a stack trace.
		if r := recover(); r != nil {
			l.errs = append(l.errs, &Error{Pos: Pos{File: l.dirName()}, Msg: fmt.Sprintf("internal error while loading the ruleset (please report this bug): %v", r)})
			rs, err = nil, l.errs
		}
	}()
	if fsys == nil {
		return nil, ErrorList{{Pos: Pos{File: l.dirName()}, Msg: "no ruleset directory given"}}
	}
	rs = l.load()
	l.errs.Sort()
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	return rs, nil
}

// loader holds the state of one Load call.
type loader struct {
	fsys   fs.FS
	prefix string
	errs   ErrorList
	rs     *Ruleset

	yamlFiles []string              // .yaml/.yml files in the directory, sorted
	data      map[string][]byte     // their contents, when readable
	roots     map[string]*yaml.Node // their top-level mappings, when usable
	used      map[string]bool       // files claimed by rules.yaml
	folders   []string              // folders with YAML names, which are not files

	// Rule values later checks depend on; 0 when missing or invalid, so
	// that the dependent checks are skipped instead of piling up errors.
	deckSize, rounds, perRound int
	affiliations               map[string]bool // nil when the list is unusable
	factionIDs                 []string
	factionSet                 map[string]bool
	factionsOK                 bool // the factions list could be read

	// cardsComplete and targetsComplete are false when a file holding cards
	// or targets could not be read: references into it are then not
	// reported as dangling, since they most likely are not.
	cardsComplete, targetsComplete bool

	cardAt    map[string]int // player card id → index
	cardPos   map[string]Pos
	cardIDs   []string
	targetAt  map[string]int
	targetPos map[string]Pos
	targetIDs []string
	tags      map[string]bool
	tagList   []string

	pending []pendingBinding
	budget  int // remaining suggestion work
}

// pendingBinding is an effect reference waiting for the second pass, when all
// cards, tags and targets are known and references can be resolved.
type pendingBinding struct {
	file   string
	key    *yaml.Node // the "effect" key
	value  *yaml.Node // its value, the handler name
	params *yaml.Node // the "params" value, or nil
	card   int        // index into rs.Cards, or -1 for a target bonus
	kind   int        // the card's EffectKind, or -1 when unknown
	target int        // index into rs.Targets, for a bonus
	bonus  int        // index into that target's Bonuses
}

func (l *loader) display(file string) string {
	if l.prefix == "" {
		return file
	}
	return l.prefix + "/" + file
}

// dirName names the ruleset directory itself in messages.
func (l *loader) dirName() string {
	if l.prefix == "" {
		return "."
	}
	return l.prefix
}

func (l *loader) errorf(p Pos, format string, args ...any) {
	l.errs = append(l.errs, &Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// at is the position of n for messages (file name as displayed).
// checkName reports a name longer than MaxNameLen characters at node n.
func (l *loader) checkName(file string, n *yaml.Node, what, name string) {
	if k := utf8.RuneCountInString(name); k > MaxNameLen {
		l.errorf(l.at(file, n), "%s name %q is %d characters long, at most %d", what, Truncate(name), k, MaxNameLen)
	}
}

func (l *loader) at(file string, n *yaml.Node) Pos {
	return Pos{File: l.display(file), Line: n.Line, Col: n.Column}
}

// fileErr reports a problem with a whole file.
func (l *loader) fileErr(file, format string, args ...any) {
	l.errorf(Pos{File: l.display(file)}, format, args...)
}

// modelPos is the position of n as stored in the model: relative to the
// ruleset directory, independent of where it was loaded from.
func modelPos(file string, n *yaml.Node) Pos {
	return Pos{File: file, Line: n.Line, Col: n.Column}
}

func (l *loader) load() *Ruleset {
	l.rs = &Ruleset{}
	l.data = map[string][]byte{}
	l.roots = map[string]*yaml.Node{}
	l.used = map[string]bool{}
	l.cardAt = map[string]int{}
	l.cardPos = map[string]Pos{}
	l.targetAt = map[string]int{}
	l.targetPos = map[string]Pos{}
	l.tags = map[string]bool{}
	l.factionSet = map[string]bool{}
	l.cardsComplete, l.targetsComplete = true, true

	if !l.readDir() {
		return nil
	}
	if !l.has(rulesFile) {
		msg := "not a ruleset: " + rulesFile + " not found"
		if s := l.suggest(rulesFile, l.yamlFiles); s != "" {
			msg += fmt.Sprintf(" (is %q a misspelling?)", s)
		}
		l.errs = ErrorList{{Pos: Pos{File: l.dirName()}, Msg: msg}}
		return nil
	}
	for _, name := range l.yamlFiles {
		if data, ok := l.data[name]; ok {
			if root := l.parse(name, data); root != nil {
				l.roots[name] = root
			}
		}
	}
	l.used[rulesFile] = true
	rules := l.roots[rulesFile]
	if rules == nil {
		return nil // reported; without the rules nothing else can be checked
	}
	decks := l.parseRules(rules)
	l.loadDecks(decks)
	l.loadTargets()
	l.checkStray(decks)
	for _, p := range l.pending {
		l.bind(p)
	}
	if n := len(l.rs.Cards); n > MaxCardDefs {
		c := l.rs.Cards[MaxCardDefs]
		l.errorf(Pos{File: l.display(c.Pos.File), Line: c.Pos.Line, Col: c.Pos.Col},
			"too many card definitions: %d, the engine supports at most %d", n, MaxCardDefs)
	}
	if len(l.errs) > 0 {
		return nil
	}
	l.finish()
	return l.rs
}

func (l *loader) has(name string) bool {
	i := sort.SearchStrings(l.yamlFiles, name)
	return i < len(l.yamlFiles) && l.yamlFiles[i] == name
}

// isYAMLName reports whether a directory entry is a ruleset file candidate.
func isYAMLName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml")
}

// readDir lists the directory and reads every YAML file in it, so that
// syntax errors in all files are reported together.
func (l *loader) readDir() bool {
	entries, err := fs.ReadDir(l.fsys, ".")
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
		l.errorf(Pos{File: l.dirName()}, "%s", msg)
		return false
	}
	for _, e := range entries {
		if e.IsDir() && isYAMLName(e.Name()) {
			l.folders = append(l.folders, e.Name())
		}
		if e.IsDir() || !isYAMLName(e.Name()) || e.Name() == LayoutFile {
			continue
		}
		l.yamlFiles = append(l.yamlFiles, e.Name())
	}
	sort.Strings(l.yamlFiles)
	for _, name := range l.yamlFiles {
		if data, ok := l.readFile(name); ok {
			l.data[name] = data
		}
	}
	return true
}

func (l *loader) readFile(name string) ([]byte, bool) {
	info, err := fs.Stat(l.fsys, name)
	if err != nil {
		l.fileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	if !info.Mode().IsRegular() {
		l.fileErr(name, "not a regular file")
		return nil, false
	}
	f, err := l.fsys.Open(name)
	if err != nil {
		l.fileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		l.fileErr(name, "cannot read file: %s", pathErrText(err))
		return nil, false
	}
	if len(data) > maxFileSize {
		l.fileErr(name, "file is too large (more than %d KiB at byte offset %d); a ruleset file is a few KiB", maxFileSize>>10, maxFileSize)
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

// ---------------------------------------------------------------------------
// YAML parsing

var (
	reYAMLLine   = regexp.MustCompile(`^line (\d+): (.*)$`)
	reYAMLAnchor = regexp.MustCompile(`^(?:unknown anchor '(.*)' referenced|anchor '(.*)' value contains itself)$`)
)

// parse checks that data is a single YAML document holding a mapping and
// returns that mapping, or reports why not and returns nil.
func (l *loader) parse(name string, data []byte) (root *yaml.Node) {
	text := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(text)) == 0 {
		l.fileErr(name, "file is empty")
		return nil
	}
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		l.fileErr(name, "not a YAML text file (UTF-16 encoded; save it as UTF-8)")
		return nil
	}
	if e := CheckText(l.display(name), data); e != nil {
		l.errs = append(l.errs, e)
		return nil
	}
	defer func() {
		// yaml.v3 reports most failures by panicking internally and
		// recovering; guard against any that escape.
		if r := recover(); r != nil {
			l.fileErr(name, "cannot parse YAML: %v", r)
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			l.fileErr(name, "file is empty") // only comments
		} else {
			l.syntaxError(name, data, err)
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
			l.syntaxError(name, data, err)
			return nil
		}
		if len(extra.Content) > 0 && !isEmptyNode(extra.Content[0]) {
			l.errorf(l.at(name, &extra), "a second YAML document starts here; a ruleset file holds one document (remove the \"---\" line)")
			return nil
		}
		if i > 1000 {
			// Reading on could take long; a ruleset file never has
			// a thousand "---" lines.
			l.errorf(l.at(name, &extra), "more than 1000 YAML documents; a ruleset file holds one document")
			return nil
		}
	}
	if len(doc.Content) == 0 || isEmptyNode(doc.Content[0]) {
		l.fileErr(name, "file is empty")
		return nil
	}
	root = doc.Content[0]
	if !l.checkAliases(name, root) {
		return nil
	}
	if e := CheckStrings(l.display(name), root); e != nil {
		l.errs = append(l.errs, e)
		return nil
	}
	if root.Kind != yaml.MappingNode {
		l.errorf(l.at(name, root), "expected a mapping of keys at the top of the file, got %s", Describe(root))
		return nil
	}
	return root
}

func isEmptyNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" && n.Value == ""
}

// checkAliases rejects aliases anywhere in the tree. Rulesets have no use for
// them, and refusing them rules out alias bombs and nodes that appear in two
// places under one position. Only the first alias is reported: one is enough
// to explain the rule.
func (l *loader) checkAliases(name string, root *yaml.Node) bool {
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
		l.errorf(l.at(name, first), "aliases (*%s) are not supported; write the value out in full", Truncate(first.Value))
		return false
	}
	return true
}

// syntaxError reports a yaml.v3 parse error as file:line. yaml.v3 omits the
// line for errors on the first line and gives the start of the enclosing
// collection (zero-based) for parser errors, so the position is refined here.
func (l *loader) syntaxError(name string, data []byte, err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := reYAMLAnchor.FindStringSubmatch(msg); m != nil {
		anchor := m[1] + m[2]
		line, col := findAlias(data, anchor)
		l.errorf(Pos{File: l.display(name), Line: line, Col: col}, "aliases (*%s) are not supported; write the value out in full", Truncate(anchor))
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
		l.errorf(Pos{File: l.display(name), Line: tl, Col: tc}, "tab character in indentation; YAML indents with spaces only")
		return
	}
	l.errorf(Pos{File: l.display(name), Line: line}, "syntax error: %s%s", msg, syntaxHints[msg])
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

// ymap is a decoded YAML mapping with its keys checked.
type ymap struct {
	l    *loader
	file string
	node *yaml.Node
	what string
	keys map[string]*yaml.Node
	vals map[string]*yaml.Node
	// suggested holds the allowed keys that some unknown key was taken for;
	// they are not also reported missing, since that is the same mistake.
	suggested map[string]bool
}

// object reads the mapping n, reporting duplicate, malformed and unknown
// keys. It returns nil (after reporting) if n is not a mapping. what names
// the object in messages ("card \"sf-galaxy\""); allowed nil accepts any key.
func (l *loader) object(file string, n *yaml.Node, what string, allowed []string) *ymap {
	if n.Kind != yaml.MappingNode {
		l.errorf(l.at(file, n), "%s: expected a mapping of keys, got %s", what, Describe(n))
		return nil
	}
	m := &ymap{l: l, file: file, node: n, what: what, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}, suggested: map[string]bool{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			l.errorf(l.at(file, k), "expected a key name, got %s", Describe(k))
			continue
		}
		if prev, dup := m.keys[k.Value]; dup {
			l.errorf(l.at(file, k), "duplicate key %q (first given at line %d)", Truncate(k.Value), prev.Line)
			continue
		}
		if allowed != nil && !contains(allowed, k.Value) {
			if s := l.suggest(k.Value, allowed); s != "" {
				l.errorf(l.at(file, k), "unknown key %q in %s, did you mean %q?", Truncate(k.Value), what, s)
				m.suggested[s] = true
			} else {
				l.errorf(l.at(file, k), "unknown key %q in %s (allowed: %s)", Truncate(k.Value), what, strings.Join(allowed, ", "))
			}
			continue
		}
		m.keys[k.Value] = k
		m.vals[k.Value] = v
	}
	return m
}

// require reports the keys that are missing.
func (m *ymap) require(keys ...string) {
	for _, k := range keys {
		if _, ok := m.vals[k]; !ok && !m.suggested[k] {
			m.l.errorf(m.l.at(m.file, m.node), "missing required key %q in %s", k, m.what)
		}
	}
}

func (m *ymap) get(key string) *yaml.Node { return m.vals[key] }

// str reads a string value. Strings must be YAML strings: an unquoted 1.2 is
// a number, and accepting it would let "1.10" silently become "1.1".
func (m *ymap) str(key string, allowEmpty bool) (string, bool) {
	n := m.vals[key]
	if n == nil {
		return "", false
	}
	return m.l.strOf(m.file, n, key, allowEmpty)
}

func (l *loader) strOf(file string, n *yaml.Node, key string, allowEmpty bool) (string, bool) {
	return StringValue(n, key, allowEmpty, l.reporter(file))
}

// reporter reports problems in file at a node.
func (l *loader) reporter(file string) func(*yaml.Node, string) {
	return func(n *yaml.Node, msg string) { l.errorf(l.at(file, n), "%s", msg) }
}

// int reads an integer in [lo, hi].
func (m *ymap) int(key string, lo, hi int) (int, bool) {
	n := m.vals[key]
	if n == nil {
		return 0, false
	}
	return m.l.intOf(m.file, n, key, lo, hi)
}

func (l *loader) intOf(file string, n *yaml.Node, key string, lo, hi int) (int, bool) {
	return IntValue(n, key, lo, hi, l.reporter(file))
}

// strs reads a list of strings, returning the item nodes for positions.
func (m *ymap) strs(key string) ([]string, []*yaml.Node, bool) {
	n := m.vals[key]
	if n == nil {
		return nil, nil, false
	}
	if n.Kind != yaml.SequenceNode {
		m.l.errorf(m.l.at(m.file, n), "%s: expected a list, got %s", key, Describe(n))
		return nil, nil, false
	}
	out := make([]string, 0, len(n.Content))
	nodes := make([]*yaml.Node, 0, len(n.Content))
	ok := true
	for _, item := range n.Content {
		s, good := m.l.strOf(m.file, item, key, false)
		if !good {
			ok = false
			continue
		}
		out = append(out, s)
		nodes = append(nodes, item)
	}
	return out, nodes, ok
}

// enum reads one of values; label names the vocabulary in messages.
func (m *ymap) enum(key, label string, values []string) (int, bool) {
	n := m.vals[key]
	if n == nil {
		return 0, false
	}
	return m.l.enumOf(m.file, n, key, label, values)
}

func (l *loader) enumOf(file string, n *yaml.Node, key, label string, values []string) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		l.errorf(l.at(file, n), "%s: expected one of %s, got %s", key, quoteList(values), Describe(n))
		return 0, false
	}
	for i, v := range values {
		if n.Value == v {
			return i, true
		}
	}
	l.errorf(l.at(file, n), "unknown %s %q%s", label, Truncate(n.Value), l.hintFor(n.Value, values))
	return 0, false
}

// hintFor is a "did you mean" for a misspelt value, or else the allowed
// values when there are few enough to list.
func (l *loader) hintFor(word string, values []string) string {
	if s := l.didYouMean(word, values); s != "" {
		return s
	}
	if len(values) <= 8 {
		return " (expected one of " + quoteList(values) + ")"
	}
	return ""
}

// suggestBudget bounds the suggestion work of one load (see suggestWithin).
const suggestBudget = 50_000_000

func (l *loader) suggest(word string, candidates []string) string {
	return suggestWithin(word, candidates, &l.budget)
}

func (l *loader) didYouMean(word string, candidates []string) string {
	return didYouMeanWithin(word, candidates, &l.budget)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// rules.yaml

// deckRef is a faction's deck entry, kept for the cross-file checks.
type deckRef struct {
	faction int
	file    string     // "" when missing or invalid
	node    *yaml.Node // the deck value
}

func (l *loader) parseRules(root *yaml.Node) []deckRef {
	const file = rulesFile
	rs := l.rs
	m := l.object(file, root, file, rulesKeys)
	m.require("name", "version", "players", "hand_size", "targets_per_round", "cards_to_end", "deck_size", "rounds", "planet_bonus", "affiliations", "factions")
	rs.Name, _ = m.str("name", false)
	l.checkName(file, m.get("name"), "ruleset", rs.Name)
	rs.Version, _ = m.str("version", false)

	var maxPlayersNode *yaml.Node
	if n := m.get("players"); n != nil {
		if pm := l.object(file, n, "players", playersKeys); pm != nil {
			pm.require(playersKeys...)
			lo, okLo := pm.int("min", 1, MaxPlayers)
			hi, okHi := pm.int("max", 1, MaxPlayers)
			if okLo && okHi && lo > hi {
				l.errorf(l.at(file, pm.get("min")), "players: min %d is greater than max %d", lo, hi)
			}
			rs.Rules.MinPlayers, rs.Rules.MaxPlayers = lo, hi
			if okHi {
				maxPlayersNode = pm.get("max")
			}
		}
	}
	rs.Rules.HandSize, _ = m.int("hand_size", 1, MaxHandSize)
	perRound, okPR := m.int("targets_per_round", 1, MaxRowsPerRound)
	rs.Rules.TargetsPerRound = perRound
	rs.Rules.CardsToEnd, _ = m.int("cards_to_end", 1, MaxCardsToEnd)
	deckSize, okDS := m.int("deck_size", 1, MaxDeckSize)
	rs.Rules.DeckSize = deckSize
	rounds, okR := m.int("rounds", 1, MaxTargets)
	rs.Rules.Rounds = rounds
	rs.Rules.PlanetBonus, _ = m.int("planet_bonus", 0, maxPlanetBonus)
	if okDS {
		l.deckSize = deckSize
		if hs := rs.Rules.HandSize; hs > 0 && deckSize < hs {
			l.errorf(l.at(file, m.get("deck_size")), "deck_size %d is smaller than hand_size %d: the opening hand could not be drawn", deckSize, hs)
		}
	}
	if okR && okPR {
		if rounds*perRound > MaxTargets {
			l.errorf(l.at(file, m.get("rounds")), "rounds × targets_per_round = %d × %d = %d targets, more than the engine's limit of %d", rounds, perRound, rounds*perRound, MaxTargets)
		} else {
			l.rounds, l.perRound = rounds, perRound
		}
	}

	// Affiliations come before the factions that refer to them.
	if affs, nodes, ok := m.strs("affiliations"); affs != nil {
		set := map[string]bool{}
		first := map[string]int{}
		for i, a := range affs {
			if set[a] {
				l.errorf(l.at(file, nodes[i]), "duplicate affiliation %q (first listed at line %d)", Truncate(a), first[a])
				continue
			}
			set[a] = true
			first[a] = nodes[i].Line
			rs.Affiliations = append(rs.Affiliations, a)
		}
		if ok && len(affs) == 0 {
			l.errorf(l.at(file, m.get("affiliations")), "affiliations: at least one affiliation is needed")
		}
		if ok {
			l.affiliations = set
		}
	}

	decks := l.parseFactions(m)
	if maxPlayersNode != nil && l.factionsOK && rs.Rules.MaxPlayers > len(l.factionIDs) && len(l.factionIDs) >= 2 {
		l.errorf(l.at(file, maxPlayersNode), "players: max is %d, but only %d factions are defined (each player plays a different faction)", rs.Rules.MaxPlayers, len(l.factionIDs))
	}

	if n := m.get("federation"); n != nil {
		if fm := l.object(file, n, "federation", federationKeys); fm != nil {
			fm.require(federationKeys...)
			if a, ok := fm.str("affiliation", false); ok {
				l.checkAffiliation(file, fm.get("affiliation"), a)
				rs.Rules.FederationAffiliation = a
			}
			if ids, nodes, _ := fm.strs("factions"); ids != nil {
				seen := map[string]bool{}
				for i, id := range ids {
					if seen[id] {
						l.errorf(l.at(file, nodes[i]), "faction %q is listed twice", Truncate(id))
						continue
					}
					seen[id] = true
					l.checkFaction(file, nodes[i], id)
					rs.Rules.FederationFactions = append(rs.Rules.FederationFactions, id)
				}
			}
		}
	}
	if id, ok := m.str("starting_faction", false); ok {
		l.checkFaction(file, m.get("starting_faction"), id)
		rs.Rules.StartingFaction = id
	}
	if m.get("tie_break") == nil {
		rs.Rules.TieBreak = append([]string(nil), tieBreaks...)
	} else if n := m.get("tie_break"); n.Kind != yaml.SequenceNode {
		l.errorf(l.at(file, n), "tie_break: expected a list, got %s", Describe(n))
	} else {
		rs.Rules.TieBreak = []string{}
		for _, item := range n.Content {
			if i, ok := l.enumOf(file, item, "tie_break", "tie-break", tieBreaks); ok {
				if contains(rs.Rules.TieBreak, tieBreaks[i]) {
					l.errorf(l.at(file, item), "tie-break %q is listed twice", tieBreaks[i])
					continue
				}
				rs.Rules.TieBreak = append(rs.Rules.TieBreak, tieBreaks[i])
			}
		}
	}
	return decks
}

func (l *loader) parseFactions(m *ymap) []deckRef {
	const file = rulesFile
	n := m.get("factions")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.errorf(l.at(file, n), "factions: expected a list, got %s", Describe(n))
		return nil
	}
	l.factionsOK = true
	switch k := len(n.Content); {
	case k < 2:
		l.errorf(l.at(file, n), "factions: %d given, a ruleset needs 2 to %d", k, MaxPlayers)
	case k > MaxPlayers:
		l.errorf(l.at(file, n.Content[MaxPlayers]), "factions: %d given, the engine supports at most %d", k, MaxPlayers)
	}
	var decks []deckRef
	firstID := map[string]int{}
	deckOwner := map[string]string{} // deck file → faction id
	for _, item := range n.Content {
		id := PeekID(item)
		fm := l.object(file, item, Named("faction", id), factionKeys)
		if fm == nil {
			continue
		}
		fm.require(factionKeys...)
		f := Faction{Index: len(l.rs.Factions), Pos: modelPos(file, item)}
		if id, ok := fm.str("id", false); ok {
			switch {
			case len(id) > MaxIDLen:
				l.errorf(l.at(file, fm.get("id")), "faction id %q is %d characters long, at most %d", Truncate(id), len(id), MaxIDLen)
			case !reFactionID.MatchString(id):
				l.errorf(l.at(file, fm.get("id")), "invalid faction id %q: use lower-case letters, digits, \"-\" and \"_\", starting with a letter", Truncate(id))
			case firstID[id] > 0:
				l.errorf(l.at(file, fm.get("id")), "duplicate faction id %q (first defined at line %d)", id, firstID[id])
			default:
				firstID[id] = fm.get("id").Line
				l.factionIDs = append(l.factionIDs, id)
				l.factionSet[id] = true
			}
			f.ID = id
		}
		f.Name, _ = fm.str("name", false)
		l.checkName(file, fm.get("name"), "faction", f.Name)
		if c := fm.get("color"); c != nil {
			if isEmptyNode(c) {
				l.errorf(l.at(file, c), "color: expected \"#rrggbb\", got nothing (quote the colour: an unquoted # starts a comment)")
			} else if s, ok := fm.str("color", false); ok {
				if !reColor.MatchString(s) {
					l.errorf(l.at(file, c), "invalid color %q: use \"#rrggbb\"", Truncate(s))
				}
				f.Color = s
			}
		}
		if planets, nodes, _ := fm.strs("planets"); planets != nil {
			for i, a := range planets {
				l.checkAffiliation(file, nodes[i], a)
			}
			f.Planets = planets
		} else if fm.get("planets") != nil {
			f.Planets = []string{}
		}
		ref := deckRef{faction: f.Index, node: fm.get("deck")}
		if deck, ok := fm.str("deck", false); ok {
			dn := fm.get("deck")
			switch {
			case strings.ContainsAny(deck, `/\`):
				l.errorf(l.at(file, dn), "deck: %q is a path; name a file in the ruleset directory", Truncate(deck))
			case !isYAMLName(deck):
				l.errorf(l.at(file, dn), "deck: %q must be a .yaml file", Truncate(deck))
			case deck == rulesFile || deck == targetsFile:
				l.errorf(l.at(file, dn), "deck: %q is not a deck file", deck)
			default:
				if owner, dup := deckOwner[deck]; dup {
					l.errorf(l.at(file, dn), "deck file %q is already the deck of faction %q", deck, owner)
					break
				}
				deckOwner[deck] = f.ID
				ref.file = deck
			}
			f.File = deck
		}
		decks = append(decks, ref)
		l.rs.Factions = append(l.rs.Factions, f)
	}
	return decks
}

func (l *loader) checkAffiliation(file string, n *yaml.Node, a string) {
	if l.affiliations == nil || l.affiliations[a] {
		return
	}
	l.errorf(l.at(file, n), "unknown affiliation %q%s", Truncate(a), l.hintFor(a, l.rs.Affiliations))
}

func (l *loader) checkFaction(file string, n *yaml.Node, id string) {
	if !l.factionsOK || l.factionSet[id] {
		return
	}
	l.errorf(l.at(file, n), "unknown faction %q%s", Truncate(id), l.hintFor(id, l.factionIDs))
}

// ---------------------------------------------------------------------------
// Deck files

func (l *loader) loadDecks(decks []deckRef) {
	if !l.factionsOK {
		l.cardsComplete = false
	}
	for _, d := range decks {
		if d.file == "" {
			l.cardsComplete = false
			continue
		}
		l.used[d.file] = true
	}
	for _, d := range decks {
		if d.file == "" {
			continue
		}
		if contains(l.folders, d.file) {
			l.cardsComplete = false
			l.errorf(l.at(rulesFile, d.node), "deck file %q is a folder, not a file", d.file)
			continue
		}
		if !l.has(d.file) {
			l.cardsComplete = false
			var unused []string
			for _, name := range l.yamlFiles {
				if !l.used[name] {
					unused = append(unused, name)
				}
			}
			l.errorf(l.at(rulesFile, d.node), "deck file %q not found%s", d.file, l.didYouMean(d.file, unused))
			continue
		}
		root := l.roots[d.file]
		if root == nil {
			l.cardsComplete = false // unreadable; already reported
			continue
		}
		l.parseDeck(&l.rs.Factions[d.faction], d.file, root)
	}
}

func (l *loader) parseDeck(f *Faction, file string, root *yaml.Node) {
	m := l.object(file, root, file, deckKeys)
	m.require(deckKeys...)
	if id, ok := m.str("faction", false); ok && f.ID != "" && id != f.ID {
		l.errorf(l.at(file, m.get("faction")), "faction %q does not match rules.yaml, which makes this file the deck of faction %q", Truncate(id), f.ID)
	}
	n := m.get("cards")
	if n == nil {
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.errorf(l.at(file, n), "cards: expected a list, got %s", Describe(n))
		return
	}
	countOK := true
	total := 0
	for _, item := range n.Content {
		copies, ok := l.parseCard(f, file, item)
		countOK = countOK && ok
		total += copies
	}
	if countOK && l.deckSize > 0 && total != l.deckSize {
		l.errorf(l.at(file, m.keys["cards"]), "deck has %d cards (copies counted), but deck_size in rules.yaml is %d", total, l.deckSize)
	}
}

// parseCard reads one card, returning its copies and whether they are known.
func (l *loader) parseCard(f *Faction, file string, n *yaml.Node) (int, bool) {
	id := PeekID(n)
	m := l.object(file, n, Named("card", id), cardKeys)
	if m == nil {
		return 0, false
	}
	m.require("id", "name", "type", "kind", "power")
	c := Card{Index: len(l.rs.Cards), Faction: f.Index, Copies: 1, Pos: modelPos(file, n)}
	if id, ok := m.str("id", false); ok {
		in := m.get("id")
		switch {
		case len(id) > MaxIDLen:
			l.errorf(l.at(file, in), "card id %q is %d characters long, at most %d", Truncate(id), len(id), MaxIDLen)
		case !reCardID.MatchString(id):
			l.errorf(l.at(file, in), "invalid card id %q: use lower-case letters, digits, \"-\" and \"_\"", Truncate(id))
		case l.cardPos[id] != (Pos{}):
			p := l.cardPos[id]
			l.errorf(l.at(file, in), "duplicate card id %q (first defined at %s:%d)", id, l.display(p.File), p.Line)
		default:
			l.cardAt[id] = c.Index
			l.cardPos[id] = modelPos(file, in)
			l.cardIDs = append(l.cardIDs, id)
		}
		c.ID = id
	}
	c.Name, _ = m.str("name", false)
	l.checkName(file, m.get("name"), "card", c.Name)
	if t, ok := m.enum("type", "card type", effects.CardTypes); ok {
		c.Type = CardType(t)
	}
	kind := -1
	if k, ok := m.enum("kind", "kind", EffectKinds); ok {
		c.Kind = EffectKind(k)
		kind = k
	}
	c.Power, _ = m.int("power", 0, maxPower)
	// A misspelt "copies" key leaves the count unknown, not 1.
	copiesOK := !m.suggested["copies"]
	if m.get("copies") != nil {
		var ok bool
		if c.Copies, ok = m.int("copies", 1, MaxCopies); !ok {
			c.Copies, copiesOK = 1, false
		}
	}
	c.Text, _ = m.str("text", true)
	if tags, nodes, _ := m.strs("tags"); tags != nil {
		own := map[string]bool{}
		for i, t := range tags {
			if len(t) > MaxIDLen {
				l.errorf(l.at(file, nodes[i]), "tag %q is %d characters long, at most %d", Truncate(t), len(t), MaxIDLen)
				continue
			}
			if !reCardID.MatchString(t) {
				l.errorf(l.at(file, nodes[i]), "invalid tag %q: use lower-case letters, digits, \"-\" and \"_\"", Truncate(t))
				continue
			}
			if own[t] {
				l.errorf(l.at(file, nodes[i]), "tag %q is listed twice", t)
				continue
			}
			own[t] = true
			c.Tags = append(c.Tags, t)
			if !l.tags[t] {
				l.tags[t] = true
				l.tagList = append(l.tagList, t)
			}
		}
	}

	effKey, effVal := m.keys["effect"], m.vals["effect"]
	paramsKey, paramsVal := m.keys["params"], m.vals["params"]
	switch {
	case kind == int(KindNone):
		if effKey != nil {
			l.errorf(l.at(file, effKey), "kind N (no effect) cannot have an effect; remove \"effect\" or change the kind")
		} else if paramsKey != nil {
			l.errorf(l.at(file, paramsKey), "\"params\" without an \"effect\"")
		}
	case effKey == nil:
		if kind > 0 && !m.suggested["effect"] {
			l.errorf(l.at(file, n), "missing required key \"effect\" in %s (kind %s needs a %s handler)", m.what, EffectKinds[kind], kindNames[kind])
		}
	default:
		l.pending = append(l.pending, pendingBinding{file: file, key: effKey, value: effVal, params: paramsVal, card: c.Index, kind: kind})
	}
	l.rs.Cards = append(l.rs.Cards, c)
	f.Deck = append(f.Deck, c.Index)
	return c.Copies, copiesOK
}

// ---------------------------------------------------------------------------
// targets.yaml

func (l *loader) loadTargets() {
	const file = targetsFile
	l.used[file] = true
	if !l.has(file) {
		l.targetsComplete = false
		l.fileErr(file, "file not found (a ruleset keeps its target cards in %s)", file)
		return
	}
	root := l.roots[file]
	if root == nil {
		l.targetsComplete = false
		return
	}
	m := l.object(file, root, file, targetsKeys)
	m.require(targetsKeys...)
	n := m.get("targets")
	if n == nil {
		l.targetsComplete = false
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.targetsComplete = false
		l.errorf(l.at(file, n), "targets: expected a list, got %s", Describe(n))
		return
	}
	for _, item := range n.Content {
		l.parseTarget(file, item)
	}
	if want := l.rounds * l.perRound; want > 0 && len(n.Content) != want {
		l.errorf(l.at(file, m.keys["targets"]), "%d targets given, but rules.yaml needs rounds × targets_per_round = %d × %d = %d", len(n.Content), l.rounds, l.perRound, want)
	} else if len(n.Content) > MaxTargets {
		l.errorf(l.at(file, n.Content[MaxTargets]), "too many targets: %d, the engine supports at most %d", len(n.Content), MaxTargets)
	}
}

func (l *loader) parseTarget(file string, n *yaml.Node) {
	id := PeekID(n)
	m := l.object(file, n, Named("target", id), targetKeys)
	if m == nil {
		l.targetsComplete = false
		return
	}
	m.require("id", "name", "type", "affiliation", "vp")
	t := Target{Index: len(l.rs.Targets), Pos: modelPos(file, n)}
	if id, ok := m.str("id", false); ok {
		in := m.get("id")
		switch {
		case len(id) > MaxIDLen:
			l.errorf(l.at(file, in), "target id %q is %d characters long, at most %d", Truncate(id), len(id), MaxIDLen)
		case !reCardID.MatchString(id):
			l.errorf(l.at(file, in), "invalid target id %q: use lower-case letters, digits, \"-\" and \"_\"", Truncate(id))
		case l.targetPos[id] != (Pos{}):
			p := l.targetPos[id]
			l.errorf(l.at(file, in), "duplicate target id %q (first defined at %s:%d)", id, l.display(p.File), p.Line)
		default:
			l.targetAt[id] = t.Index
			l.targetPos[id] = modelPos(file, in)
			l.targetIDs = append(l.targetIDs, id)
		}
		t.ID = id
	} else {
		l.targetsComplete = false
	}
	t.Name, _ = m.str("name", false)
	l.checkName(file, m.get("name"), "target", t.Name)
	typ, typeOK := m.enum("type", "target type", effects.TargetTypes)
	t.Type = TargetType(typ)
	if a, ok := m.str("affiliation", false); ok {
		l.checkAffiliation(file, m.get("affiliation"), a)
		t.Affiliation = a
	}
	if q := m.get("quadrant"); q != nil {
		if typeOK && t.Type != Planet {
			l.errorf(l.at(file, m.keys["quadrant"]), "quadrant is only for planets, not for a %s", t.Type)
		} else if i, ok := m.enum("quadrant", "quadrant", effects.Quadrants); ok {
			t.Quadrant = effects.Quadrants[i]
		}
	} else if typeOK && t.Type == Planet && !m.suggested["quadrant"] {
		l.errorf(l.at(file, n), "missing required key \"quadrant\" in %s (a planet lies in the %s quadrant)", m.what, strings.Join(effects.Quadrants, " or "))
	}
	t.VP, _ = m.int("vp", 0, maxVP)
	t.Text, _ = m.str("text", true)
	if b := m.get("bonuses"); b != nil {
		if b.Kind != yaml.SequenceNode {
			l.errorf(l.at(file, b), "bonuses: expected a list, got %s", Describe(b))
		} else {
			for _, item := range b.Content {
				bm := l.object(file, item, "bonus", bonusKeys)
				if bm == nil {
					continue
				}
				bm.require("effect")
				if bm.keys["effect"] == nil {
					continue
				}
				l.pending = append(l.pending, pendingBinding{file: file, key: bm.keys["effect"], value: bm.vals["effect"], params: bm.vals["params"], card: -1, kind: -1, target: t.Index, bonus: len(t.Bonuses)})
				t.Bonuses = append(t.Bonuses, Binding{Pos: modelPos(file, item)})
			}
		}
	}
	l.rs.Targets = append(l.rs.Targets, t)
}

// ---------------------------------------------------------------------------
// Cross-file checks

// checkStray reports YAML files that rules.yaml does not claim: most likely a
// deck whose deck: entry is misspelt, which would otherwise load as a
// ruleset missing that deck's edits.
func (l *loader) checkStray(decks []deckRef) {
	if !l.factionsOK {
		return
	}
	var missing []string
	for _, d := range decks {
		if d.file != "" && !l.has(d.file) {
			missing = append(missing, d.file)
		}
	}
	for _, name := range l.yamlFiles {
		if l.used[name] {
			continue
		}
		if s := l.suggest(name, missing); s != "" {
			l.fileErr(name, "file is not used: rules.yaml names deck %q (misspelt file name?)", s)
		} else {
			l.fileErr(name, "file is not used by rules.yaml (a deck file must be named by a faction's deck: entry)")
		}
	}
}

// bind resolves one effect reference against the handler registry.
func (l *loader) bind(p pendingBinding) {
	file := p.file
	if p.value.Kind != yaml.ScalarNode || p.value.ShortTag() != "!!str" || p.value.Value == "" {
		l.errorf(l.at(file, p.value), "effect: expected a handler name, got %s", Describe(p.value))
		return
	}
	name := p.value.Value
	spec, ok := effects.Lookup(name)
	if !ok {
		hint := l.didYouMean(name, effects.Names())
		if hint == "" {
			hint = " (`cardlab effects` lists them)"
		}
		l.errorf(l.at(file, p.value), "unknown handler %q%s", Truncate(name), hint)
		return
	}
	if p.card >= 0 {
		switch {
		case spec.Timing == effects.TargetBonus:
			l.errorf(l.at(file, p.value), "handler %q is a target-card bonus; player cards need a one-time, permanent, special or scoring handler", name)
		case p.kind > 0 && EffectKind(p.kind).Timing() != spec.Timing:
			l.errorf(l.at(file, p.value), "handler %q is a %s effect (kind %s), but the card's kind is %s (%s)", name, spec.Timing, spec.Timing.Kind(), EffectKinds[p.kind], kindNames[p.kind])
		}
	} else if spec.Timing != effects.TargetBonus {
		var bonus []string
		for _, s := range effects.All() {
			if s.Timing == effects.TargetBonus {
				bonus = append(bonus, s.Name)
			}
		}
		l.errorf(l.at(file, p.value), "handler %q is a %s player-card effect; target bonuses need a target-bonus handler (%s)", name, spec.Timing, strings.Join(bonus, ", "))
	}
	b := Binding{Handler: name, Spec: spec, Args: l.params(file, spec, p), Pos: modelPos(file, p.key)}
	if p.card >= 0 {
		l.rs.Cards[p.card].Effect = &b
	} else {
		b.Pos = l.rs.Targets[p.target].Bonuses[p.bonus].Pos
		l.rs.Targets[p.target].Bonuses[p.bonus] = b
	}
}

// params decodes a binding's parameters against the handler declaration.
func (l *loader) params(file string, spec *effects.Spec, p pendingBinding) []effects.Value {
	d := &ParamDecoder{
		Refs: &Refs{
			Kinds: map[string]*RefSet{
				effects.RefCard:   {At: l.cardAt, IDs: l.cardIDs, Known: l.cardsComplete},
				effects.RefTarget: {At: l.targetAt, IDs: l.targetIDs, Known: l.targetsComplete},
			},
			Tags: l.tags, TagList: l.tagList, TagsKnown: l.cardsComplete,
		},
		Report: l.reporter(file),
		Budget: &l.budget,
	}
	return d.Params(spec, p.params, p.key, p.value)
}

// finish records the files and their hash on a valid ruleset.
func (l *loader) finish() {
	var names []string
	for name := range l.used {
		if _, ok := l.data[name]; ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	l.rs.Files = make(map[string][]byte, len(names))
	h := sha256.New()
	for _, name := range names {
		data := l.data[name]
		l.rs.Files[name] = data
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
	}
	l.rs.Hash = hex.EncodeToString(h.Sum(nil))
}
