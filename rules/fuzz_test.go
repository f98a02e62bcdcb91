package rules

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseLog: the parser never panics; a log it accepts formats to text
// that parses back to the same header and events; replaying never panics.
// The seed corpus is in testdata/fuzz/FuzzParseLog; the example logs of
// testdata/logs are added as seeds too.
//
//	go test ./rules -run '^$' -fuzz FuzzParseLog -fuzztime 60s
func FuzzParseLog(f *testing.F) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "logs", "*.log"))
	for _, p := range logs {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lg, err := ParseLog(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Line < 1 {
				t.Fatalf("error at line %d", le.Line)
			}
			return
		}
		text := lg.Format()
		back, err := ParseLog(strings.NewReader(text))
		if err != nil {
			t.Fatalf("formatted log does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(back.Header, lg.Header) {
			t.Fatalf("header changed:\n%#v\n%#v", lg.Header, back.Header)
		}
		if len(back.Entries) != len(lg.Entries) {
			t.Fatalf("%d events, then %d", len(lg.Entries), len(back.Entries))
		}
		for i := range lg.Entries {
			if !reflect.DeepEqual(back.Entries[i].Event, lg.Entries[i].Event) {
				t.Fatalf("event %d changed: %#v → %#v", i, lg.Entries[i].Event, back.Entries[i].Event)
			}
		}
		if lg.Header.Profile != "" {
			_, _ = lg.Play(nil) // errors are fine; panics are not
		}
	})
}
