module github.com/boardcam/boardcam

go 1.24

require (
	github.com/gorilla/websocket v1.5.3
	github.com/prometheus/client_golang v1.20.5
	github.com/warthog618/go-gpiocdev v0.9.1
	gocv.io/x/gocv v0.31.0
	gopkg.in/yaml.v3 v3.0.1
	periph.io/x/conn/v3 v3.7.2
	periph.io/x/devices/v3 v3.7.4
	periph.io/x/host/v3 v3.8.5
)
