package redact

import (
	"context"
	"log/slog"
)

// Handler wraps h so that before h sees a record, its message and every
// attribute value given as text (strings, errors, Stringers, inside groups
// too) are redacted with String, and an attribute whose key names a secret
// ("password", "api_key", …) has its text replaced by Marker.
func Handler(h slog.Handler) slog.Handler { return handler{h} }

type handler struct{ h slog.Handler }

func (r handler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r handler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = attr(a)
	}
	return handler{r.h.WithAttrs(red)}
}

func (r handler) WithGroup(name string) slog.Handler { return handler{r.h.WithGroup(name)} }

// isCount tells numbers apart: an attribute "tokens" or "max_token" holding
// an int is a count, not a credential.
func isCount(k slog.Kind) bool {
	return k == slog.KindInt64 || k == slog.KindUint64 || k == slog.KindFloat64
}

// attr redacts one attribute's value; numbers, bools, times and durations
// pass through untouched.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if v.Kind() != slog.KindGroup && secretName(a.Key) && !isCount(v.Kind()) {
		return slog.String(a.Key, Marker)
	}
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, x := range g {
			red[i] = attr(x)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		return slog.String(a.Key, String(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
