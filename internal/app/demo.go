package app

import "context"

// The demo login printed by `make run` and used by the browser tests.
const (
	DemoAccount  = "demo01"
	DemoPassword = "demo123456"
	demoName     = "示范农场"
)

// seedDemo creates what --demo promises, leaving anything that exists alone.
func seedDemo(ctx context.Context, m *Main) error {
	created, err := m.Accounts.EnsureAccount(ctx, DemoAccount, DemoPassword, demoName)
	if err != nil {
		return err
	}
	if created {
		m.Log.Info("demo account created", "account", DemoAccount)
	}
	return nil
}
