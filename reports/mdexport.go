package reports

// MarkdownText is free text made safe in CommonMark (mdText), for the
// Markdown other commands write (balance.md).
func MarkdownText(s string) string { return mdText(s) }

// MarkdownFence is a code fence longer than any run of backticks in s.
func MarkdownFence(s string) string { return mdFence(s) }
