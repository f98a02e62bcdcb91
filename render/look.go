package render

import (
	"github.com/boardcam/boardcam/board"
	"github.com/boardcam/boardcam/render/look"
)

// The renderer's settings are plain data in package look (without cgo, so
// that clip specs and the corpus hold them without linking OpenCV); these
// are their names here.
type (
	Settings       = look.Settings
	CameraSettings = look.CameraSettings
	Knock          = look.Knock
	BoardStyle     = look.BoardStyle
	PieceStyle     = look.PieceStyle
	Lighting       = look.Lighting
	Dim            = look.Dim
	Background     = look.Background
	Sensor         = look.Sensor
	VideoSettings  = look.VideoSettings
	LineStyle      = look.LineStyle
)

// DefaultSettings returns look.DefaultSettings.
func DefaultSettings() Settings { return look.DefaultSettings() }

// LoadSettings reads settings from a YAML file (look.LoadSettings).
func LoadSettings(path string) (Settings, error) { return look.LoadSettings(path) }

// ParseSettings reads settings from YAML (look.ParseSettings).
func ParseSettings(b []byte) (Settings, error) { return look.ParseSettings(b) }

// DrawnMarkings returns the markings as the renderer draws them for style
// b on geometry g (look.DrawnMarkings).
func DrawnMarkings(b BoardStyle, g *board.Geometry) *board.Markings { return look.DrawnMarkings(b, g) }
