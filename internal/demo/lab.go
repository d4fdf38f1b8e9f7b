package demo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// labAppName is the demo's detection application, found again by its name.
const labAppName = "示范虫情识别"

// LabStore keeps the AI lab's models and applications.
type LabStore interface {
	Models(ctx context.Context, ownerID int64) ([]ailab.StoredModel, error)
	CreateModel(ctx context.Context, m *ailab.StoredModel, data []byte) error
	LabApps(ctx context.Context, ownerID int64) ([]ailab.App, error)
	CreateLabApp(ctx context.Context, a *ailab.App) error
}

// lab gives the demo account the built-in insect counter and a published
// application running it on every demo trap, so each picture the traps
// send (the backfilled noons first) becomes a detection record and a
// detectCount reading. Made when missing; left as the user changed it.
func (f *Farm) lab(ctx context.Context, owner int64, own []*devices.Device) error {
	apps, err := f.Lab.LabApps(ctx, owner)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(apps, func(a ailab.App) bool { return a.Name == labAppName }) {
		return nil
	}
	pkg, err := ailab.ReadPackage(builtin.InsectCounterFile, builtin.InsectCounter)
	if err != nil {
		return fmt.Errorf("built-in counter: %w", err)
	}
	models, err := f.Lab.Models(ctx, owner)
	if err != nil {
		return err
	}
	var model *ailab.StoredModel
	for i := range models {
		if models[i].Name == pkg.Manifest.Name && models[i].Version == pkg.Manifest.Version {
			model = &models[i]
		}
	}
	now := time.Now()
	if model == nil {
		model = &ailab.StoredModel{OwnerID: owner, Name: pkg.Manifest.Name, Version: pkg.Manifest.Version,
			Kind: pkg.Manifest.Output.Kind, FileName: builtin.InsectCounterFile, Manifest: pkg.Manifest,
			Operators: pkg.Operators, CreatedAt: now}
		if err := f.Lab.CreateModel(ctx, model, builtin.InsectCounter); err != nil {
			return err
		}
	}
	a := &ailab.App{OwnerID: owner, Name: labAppName, MediumName: "虫情测报灯诱虫板",
		Description: "内置虫口计数模型识别每张诱虫板图片中的蛾类数量", Type: ailab.AppInsect, ModelID: model.ID,
		Elements: pkg.Manifest.Elements, Published: true, CreatedAt: now, UpdatedAt: now}
	for _, d := range own {
		if slices.Contains(ailab.AppTypes[ailab.AppInsect], d.TypeID) && !d.Slave {
			a.DeviceIDs = append(a.DeviceIDs, d.ID)
		}
	}
	if len(a.DeviceIDs) == 0 {
		return nil
	}
	return f.Lab.CreateLabApp(ctx, a)
}
