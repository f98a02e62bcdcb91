package main

import (
	"github.com/boardcam/boardcam/daemon"
	"github.com/boardcam/boardcam/eval"
	"github.com/boardcam/boardcam/pipeline/evalpipe"
	"github.com/boardcam/boardcam/sight"
	"github.com/boardcam/boardcam/vision/analysis"
)

// This program links OpenCV and hands its parts to the packages that do
// not (internal/importgraph keeps them so): the analysis to the daemon and
// to eval, eval's video decoder, the umpire's corners, the frames' pictures
// and the change detector to the daemon.

func init() { evalpipe.Register(analysis.Factory) }

// daemonSight is the daemon's OpenCV side.
func daemonSight() daemon.Sight {
	return daemon.Sight{NewAnalyzer: analysis.Factory, FromCorners: analysis.FromCorners, Pictures: analysis.Pictures{},
		NewChangeDetector: func() sight.ChangeDetector { return analysis.NewChangeDetector() }}
}

// evalVideo decodes eval's clips with OpenCV.
func evalVideo(path string) (eval.Video, error) { return analysis.OpenVideo(path) }
