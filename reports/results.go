package reports

import "io"

// WriteResults writes the results.json that Write would write into a
// report's folder (d with o's settings recorded in its Meta), alone: what
// 'cardlab merge' of a report's shards writes, for 'cardlab report --from'.
func WriteResults(w io.Writer, d *Data, o Options) error { return WriteJSON(w, withSettings(d, o)) }
