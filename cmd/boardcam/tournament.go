package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/boardcam/boardcam/mqtt"
	"github.com/boardcam/boardcam/tournament"
)

func init() {
	register(command{Name: "tournament", Summary: "the tournament view: every board on an MQTT broker, an OBS page, the chief referee's commands", Run: cmdTournament})
}

const tournamentHelp = `
Subscribe to every board that publishes to an MQTT broker (boardcam run with
an mqtt: section) and serve:

  /        every board's live score, whose turn, decisions waiting, health
           (camera lost, board offline)
  /obs     the OBS page: follows the board the producer puts on air
           (/obs?board=boardcam/club/board3 follows one board)
  /chief   the chief referee's page: log in, confirm or overrule any board's
           decisions, undo, next board, put a board on air
  /metrics Prometheus

Commands are signed with --command-key and go to the board through the
broker; each board checks the signature (its mqtt.command_key) and the
command itself, as its own console's. --gen-key FILE writes a new key pair:
the private key to FILE, the public key (for the boards) to standard output.

A configuration file (--config, deploy/tournament.example.yaml) holds the
same settings; flags override it. docs/mqtt.md describes topics and payloads.
`

func cmdTournament(ctx context.Context, args []string, s stdio) error {
	fs := newFlags("tournament", "[flags]", tournamentHelp, s)
	configFile := fs.String("config", "", "configuration `FILE` (YAML; deploy/tournament.example.yaml)")
	broker := fs.String("broker", "", "the broker's `URL`: mqtt://host:1883 or mqtts://host:8883")
	username := fs.String("username", "", "MQTT username")
	passwordFile := fs.String("password-file", "", "`FILE` holding the MQTT password")
	ca := fs.String("ca", "", "PEM `FILE` of the CA that signed the broker's certificate")
	topics := fs.String("topics", "", "topic filter of the boards (default boardcam/#)")
	listen := fs.String("listen", "", "web server address (default :8090)")
	chiefHash := fs.String("chief-hash", "", "the chief referee's password `HASH` (boardcam passwd)")
	commandKey := fs.String("command-key", "", "private key `FILE` that signs commands")
	genKey := fs.String("gen-key", "", "write a new command key pair: the private key to `FILE`, the public key to standard output, and exit")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("tournament takes no arguments")
	}
	if *genKey != "" {
		priv, pub, err := mqtt.GenerateKey()
		if err != nil {
			return err
		}
		f, err := os.OpenFile(*genKey, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("--gen-key: %w", err)
		}
		if _, err := f.WriteString(priv); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintln(s.Out, pub)
		fmt.Fprintf(s.Err, "private key written to %s; put the line above in each board's mqtt.command_key\n", *genKey)
		return nil
	}
	var cfg tournament.Config
	if *configFile != "" {
		b, err := os.ReadFile(*configFile)
		if err != nil {
			return err
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&cfg); err != nil {
			return fmt.Errorf("%s: %w", *configFile, err)
		}
	}
	set := map[string]func(){
		"broker":        func() { cfg.MQTT.Broker = *broker },
		"username":      func() { cfg.MQTT.Username = *username },
		"password-file": func() { cfg.MQTT.PasswordFile = *passwordFile },
		"ca":            func() { cfg.MQTT.CA = *ca },
		"topics":        func() { cfg.Topics = *topics },
		"listen":        func() { cfg.Listen = *listen },
		"chief-hash":    func() { cfg.ChiefHash = *chiefHash },
		"command-key":   func() { cfg.CommandKey = *commandKey },
	}
	for name, apply := range set {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "" {
			apply()
		}
	}
	if cfg.MQTT.Broker == "" {
		return usageError("tournament needs --broker URL (or mqtt.broker in --config)")
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return usageError("--log-level %q: want debug, info, warn or error", *logLevel)
	}
	log := slog.New(slog.NewTextHandler(s.Err, &slog.HandlerOptions{Level: level}))
	v := &tournament.View{Config: cfg, Logger: log}
	if err := v.Initialize(); err != nil {
		return err
	}
	defer v.Close()
	log.Info("tournament view", "url", "http://"+v.Addr()+"/", "broker", cfg.MQTT.Broker)
	<-ctx.Done()
	return nil
}
