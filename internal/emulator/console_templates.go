package emulator

import (
	"embed"
	"html/template"
	"io"
	"strconv"
	"time"
)

// consoleFiles are the console's templates: one file per page, and
// frame.html with what they share.
//
//go:embed console/*.html
var consoleFiles embed.FS

// consoleTemplates are parsed once; html/template escapes every value
// for where it appears, so originalIds, e-mail addresses, User-Agents and
// paths, which any client chooses, are shown and never run.
var consoleTemplates = escapedConsole(template.Must(template.New("console").Funcs(template.FuncMap{
	"stamp": func(sec int64) string { return time.Unix(sec, 0).UTC().Format(consoleTime) },
	"clock": func(t time.Time) string { return t.UTC().Format(consoleTime + ".000") },
	"ms": func(d time.Duration) string {
		return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
	},
}).ParseFS(consoleFiles, "console/*.html")))

// consolePages are the templates the console executes.
var consolePages = []string{"lists", "list", "contact", "requests", "error", "index"}

// escapedConsole has html/template work out how to escape each page now,
// which it otherwise does on a page's first execution: the first page a
// person opens is then as quick as the others. Executing without data
// fails after the escaping, which is all that is wanted here.
func escapedConsole(t *template.Template) *template.Template {
	for _, name := range consolePages {
		_ = t.ExecuteTemplate(io.Discard, name, nil)
	}
	return t
}

// consoleTime is how the console writes times, always in UTC.
const consoleTime = "2006-01-02 15:04:05"
