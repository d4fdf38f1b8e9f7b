package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// CommandsOptions configure the command round-trip benchmark.
type CommandsOptions struct {
	DB       string // PostgreSQL URL, or "" for SQLite in a temporary directory
	Devices  int    // valve controllers connected, each taking commands one after another
	Commands int    // commands per device
}

// CommandsResult holds the measured round trips, sorted.
type CommandsResult struct {
	Dialect string
	Trips   []time.Duration // send → the device's acknowledgement stored
	Took    time.Duration
}

// Commands times commands through the server's path: the console's send
// (checked, recorded, published by the embedded broker at QoS 1), the
// device receiving it over MQTT and acknowledging it at QoS 1 on
// devices/{sn}/commands/ack, the acknowledgement stored (the broker's
// PUBACK to the device comes after). Devices valve controllers take
// commands at once, each one after another.
func Commands(ctx context.Context, o CommandsOptions) (*CommandsResult, error) {
	g, clean, err := graph(ctx, o.DB, app.Options{}, nil)
	if err != nil {
		return nil, err
	}
	defer clean()
	g.Start()
	owner, err := g.Accounts.Create(ctx, "benchcmd", "bench123456", "bench")
	if err != nil {
		return nil, err
	}
	type dev struct {
		d   *devices.Device
		c   mqtt.Client
		got chan int64
	}
	devs := make([]*dev, o.Devices)
	for i := range devs {
		d, key, err := g.Devices.Register(ctx, devices.Registration{SN: fmt.Sprintf("YYBENCH%05d", i), TypeID: 10, Owner: owner.ID})
		if err != nil {
			return nil, err
		}
		v := &dev{d: d, got: make(chan int64, 1)}
		v.c = mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + g.MQTTAddr()).
			SetClientID(d.SN).SetUsername(d.SN).SetPassword(key).SetOrderMatters(false))
		if tok := v.c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			return nil, fmt.Errorf("connect %s: %v", d.SN, tok.Error())
		}
		defer v.c.Disconnect(0)
		// The device acknowledges each command as it arrives; the ack's
		// PUBACK, which the server sends once the ack is stored, ends the trip.
		tok := v.c.Subscribe(fmt.Sprintf("devices/%s/commands", d.SN), 1, func(c mqtt.Client, m mqtt.Message) {
			var w commands.Wire
			if json.Unmarshal(m.Payload(), &w) != nil {
				return
			}
			a := c.Publish(fmt.Sprintf("devices/%s/commands/ack", d.SN), 1, false, fmt.Sprintf(`{"id":%d,"result":"ok"}`, w.ID))
			go func() {
				if a.WaitTimeout(30*time.Second) && a.Error() == nil {
					v.got <- w.ID
				}
			}()
		})
		if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			return nil, fmt.Errorf("subscribe %s: %v", d.SN, tok.Error())
		}
		devs[i] = v
	}
	var (
		mu    sync.Mutex
		trips []time.Duration
		errs  = make(chan error, len(devs))
		wg    sync.WaitGroup
	)
	by := commands.Sender{Account: owner.ID, Source: commands.SourceConsole}
	begin := time.Now()
	for _, v := range devs {
		wg.Go(func() {
			for range o.Commands {
				t0 := time.Now()
				c, err := g.Commands.SendAuthorized(ctx, by, v.d, devices.CmdOpenFor, json.RawMessage(`{"minutes":10}`))
				if err != nil {
					errs <- err
					return
				}
				select {
				case id := <-v.got:
					if id != c.ID {
						errs <- fmt.Errorf("%s acknowledged %d, sent %d", v.d.SN, id, c.ID)
						return
					}
				case <-time.After(time.Minute):
					errs <- fmt.Errorf("%s: command %d not acknowledged", v.d.SN, c.ID)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				trips = append(trips, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	took := time.Since(begin)
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	// Every acknowledgement is stored.
	for _, v := range devs {
		list, _, err := g.DB.DeviceCommands(ctx, v.d.ID, 0, o.Commands)
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			if c.State != commands.StateEffective {
				return nil, fmt.Errorf("command %d is %s", c.ID, c.State)
			}
		}
	}
	slices.Sort(trips)
	return &CommandsResult{Dialect: string(g.DB.Dialect()), Trips: trips, Took: took}, nil
}
