package provider

import "testing"

func TestDelimiterFromCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code   string
		want   string
		wantOK bool
	}{
		{"44", ",", true},
		{"59", ";", true},
		{"9", "\t", true},
		{";", ";", true}, // a service that echoes the character
		{"", "", false},
		{"300", "", false},
		{"abc", "", false},
	}
	for _, tt := range tests {
		got, ok := delimiterFromCode(tt.code)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("delimiterFromCode(%q) = %q, %v; want %q, %v", tt.code, got, ok, tt.want, tt.wantOK)
		}
	}
}
