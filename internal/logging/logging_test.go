package logging

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuietUnreadLogs(t *testing.T) {
	allOff := map[string]string{"TF_LOG_PROVIDER": "OFF", "TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF"}
	tests := map[string]struct {
		debug bool
		env   map[string]string
		want  map[string]string // variables set
	}{
		"nothing asks for logs":          {env: map[string]string{}, want: allOff},
		"only core logs are kept":        {env: map[string]string{"TF_LOG_CORE": "TRACE", "TF_LOG_PATH": "tf.log"}, want: allOff},
		"an empty TF_LOG is unset":       {env: map[string]string{"TF_LOG": ""}, want: allOff},
		"TF_LOG keeps provider logs":     {env: map[string]string{"TF_LOG": "DEBUG"}, want: map[string]string{}},
		"TF_LOG_PROVIDER keeps them":     {env: map[string]string{"TF_LOG_PROVIDER": "TRACE"}, want: map[string]string{}},
		"debug mode prints to a console": {debug: true, env: map[string]string{}, want: map[string]string{}},
		"an explicit level is kept": {
			env:  map[string]string{"TF_LOG_SDK_FRAMEWORK": "DEBUG"},
			want: map[string]string{"TF_LOG_PROVIDER": "OFF", "TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			set := map[string]string{}
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			err := quietUnreadLogs(tc.debug, lookup, func(k, v string) error { set[k] = v; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, set); diff != "" {
				t.Errorf("variables set (-want +got):\n%s", diff)
			}
		})
	}
}
