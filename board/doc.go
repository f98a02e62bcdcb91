// Package board describes a carrom board in millimetres and answers the
// geometric questions a referee asks about discs on it.
//
// # Coordinates
//
// The origin is the centre of the playing surface. x grows to the right and
// y grows downwards, as seen from above. The four sides are named S (bottom,
// y > 0), E (right, x > 0), N (top) and W (left); the pockets SW, SE, NE and
// NW sit in the corners of the playing surface.
//
// # Where the figures come from
//
// The built-in ICF board follows the Laws of Carrom (EQUIPMENT, POCKETS,
// BASE LINES, FOUL LINES, CENTRE CIRCLE, OUTER CIRCLE, CARROMMEN, STRIKER)
// with the printed 5.18 cm figures corrected to 3.18 cm, as the published
// international figures have them; with 5.18 cm no striker of at most
// 41.5 mm could touch both base lines. A club describes its own board in a
// YAML file (see [Load]) with the same field names as [Geometry].
//
// # Base lines
//
// Each side has a thick rear (outer, "lower") base line whose outer edge lies
// BaseLineOffset from the frame, and a thin front line BaseLineGap further
// in. The base circles sit in the gap at both ends, touch both lines and
// touch the adjacent side's front line extended (so the arrow passes through
// the gap between the circles of two sides). The arrows run along the
// diagonals toward the pockets, ending ArrowPocketClearance short of the
// pocket's edge.
package board
