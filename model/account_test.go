package model

import "context"

// Logout implements backend.Client for the fake (account/logout).
func (f *fakeDriver) Logout(context.Context) error { return f.answer("account/logout", nil, nil) }
