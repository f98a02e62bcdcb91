package sheet

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"
)

// CSVHeader is the first row of WriteCSV: every row is one record of the
// sheet, its kind in the first column.
var CSVHeader = []string{"record", "board", "line", "seat", "name", "points", "detail", "fouls", "by"}

// WriteCSV writes the sheet as CSV rows (CSVHeader first):
//
//	match      profile in name, format in detail, result in detail
//	team       name, its players in detail, score in points, boards won in line
//	result     the match's result in detail
//	board      board, winner in name, points ("5+1": 1 demanded on top), how in detail, rule in fouls
//	stroke     board, line, seat, player, event in detail, fouls, by
//	foul       the same for each line with a foul
//	decision   the same for each line the umpire decided
//	signature  the signatory in name (to sign on paper)
func WriteCSV(w io.Writer, s *Sheet) error {
	cw := csv.NewWriter(w)
	rows := [][]string{CSVHeader}
	kind := "singles"
	if s.Doubles {
		kind = "doubles"
	}
	rows = append(rows, []string{"match", "", "", "", s.Profile, "", kind + ", " + s.Format, "", ""})
	rows = append(rows, []string{"result", "", "", "", "", "", s.Result, "", ""})
	for _, t := range s.Teams {
		rows = append(rows, []string{"team", "", strconv.Itoa(t.BoardsWon), "", t.Name, strconv.Itoa(t.Score), strings.Join(t.Players, "; "), "", ""})
	}
	for _, b := range s.Boards {
		pts := strconv.Itoa(b.Points)
		if b.Demanded > 0 {
			pts = fmt.Sprintf("%d+%d", b.Points, b.Demanded)
		}
		rows = append(rows, []string{"board", strconv.Itoa(b.Board), "", "", b.Winner, pts, b.How, b.Rule, ""})
	}
	line := func(kind string, st Stroke) []string {
		seat := ""
		if st.Player != "" {
			seat = st.Seat.String()
		}
		return []string{kind, strconv.Itoa(st.Board), lineNo(st.Line), seat, st.Player, "", st.Event, foulList(st.Fouls), decidedBy(st.By)}
	}
	for _, st := range s.Strokes {
		rows = append(rows, line("stroke", st))
	}
	for _, st := range s.Fouls {
		rows = append(rows, line("foul", st))
	}
	for _, st := range s.Decisions {
		r := line("decision", st)
		if st.Note != "" {
			r[6] += " — " + st.Note
		}
		rows = append(rows, r)
	}
	for _, sg := range s.Signatures {
		rows = append(rows, []string{"signature", "", "", "", sg, "", "", "", ""})
	}
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("sheet: %w", err)
	}
	return nil
}

// WritePDF writes the sheet as an A4 PDF: the match and its players, a
// table of the boards, the fouls, the umpire's decisions, the signature
// lines, then every line of the match.
func WritePDF(w io.Writer, s *Sheet) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(true, 15)
	pdf.SetTitle("Match sheet", true)
	pdf.SetCreator("boardcam", true)
	pdf.AliasNbPages("")
	pdf.SetFooterFunc(func() {
		pdf.SetY(-12)
		pdf.SetFont("Helvetica", "", 8)
		pdf.CellFormat(0, 5, fmt.Sprintf("boardcam match sheet, page %d of {nb}", pdf.PageNo()), "", 0, "C", false, 0, "")
	})
	pdf.AddPage()
	d := &sheetPDF{pdf: pdf, tr: pdf.UnicodeTranslatorFromDescriptor("")} // UTF-8 → the core fonts' cp1252
	d.heading(s)
	d.table("Boards", []float64{14, 30, 30, 94, 12}, []string{"Board", "Won by", "Points", "How", "Lines"}, boardRows(s.Boards))
	w6 := []float64{14, 14, 40, 58, 34, 20}
	head := []string{"Board", "Line", "Player", "Line of the log", "Fouls", "Decided by"}
	d.table("Fouls", w6, head, strokeRows(s.Fouls, false))
	d.table("Umpire's decisions", w6, head, strokeRows(s.Decisions, true))
	d.signatures(s.Signatures)
	pdf.AddPage()
	d.table("Every line of the match", w6, head, strokeRows(s.Strokes, true))
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("sheet: %w", err)
	}
	return nil
}

// sheetPDF draws the parts of a match sheet.
type sheetPDF struct {
	pdf *fpdf.Fpdf
	tr  func(string) string
}

func (d *sheetPDF) text(style string, size float64, h float64, s string) {
	d.pdf.SetFont("Helvetica", style, size)
	d.pdf.MultiCell(0, h, d.tr(s), "", "L", false)
}

// heading: the title, the rules, the sides and the result.
func (d *sheetPDF) heading(s *Sheet) {
	d.text("B", 16, 8, "Match sheet")
	kind := "singles"
	if s.Doubles {
		kind = "doubles"
	}
	d.text("", 10, 5, fmt.Sprintf("Rules: %s, %s, %s", s.Profile, kind, s.Format))
	for _, t := range s.Teams {
		d.text("", 10, 5, fmt.Sprintf("%s: %s", t.Name, strings.Join(t.Players, ", ")))
	}
	d.text("B", 11, 6, "Result: "+s.Result)
	d.pdf.Ln(2)
}

// table draws a titled table, each row as tall as its tallest cell, a new
// page when a row would not fit.
func (d *sheetPDF) table(title string, widths []float64, head []string, rows [][]string) {
	pdf, tr := d.pdf, d.tr
	d.text("B", 12, 7, title)
	if len(rows) == 0 {
		d.text("I", 10, 5, "none")
		pdf.Ln(2)
		return
	}
	pdf.SetFont("Helvetica", "B", 9)
	for i, h := range head {
		pdf.CellFormat(widths[i], 6, tr(h), "1", 0, "L", false, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 9)
	for _, r := range rows {
		n := 1
		for i, c := range r {
			if k := len(pdf.SplitLines([]byte(tr(c)), widths[i]-2)); k > n {
				n = k
			}
		}
		h := 4.5 * float64(n)
		if pdf.GetY()+h > 282 {
			pdf.AddPage()
		}
		x, y := pdf.GetX(), pdf.GetY()
		for i, c := range r {
			pdf.Rect(x, y, widths[i], h, "D")
			pdf.MultiCell(widths[i], 4.5, tr(c), "", "L", false)
			x += widths[i]
			pdf.SetXY(x, y)
		}
		pdf.SetXY(15, y+h)
	}
	pdf.Ln(3)
}

// signatures: a line to sign and one to date for each signatory.
func (d *sheetPDF) signatures(names []string) {
	pdf := d.pdf
	d.text("B", 12, 7, "Signatures")
	pdf.SetFont("Helvetica", "", 10)
	for _, sg := range names {
		if pdf.GetY() > 265 {
			pdf.AddPage()
		}
		pdf.Ln(9)
		y := pdf.GetY()
		pdf.Line(15, y, 105, y)
		pdf.Line(120, y, 180, y)
		pdf.SetXY(15, y+1)
		pdf.CellFormat(90, 5, d.tr(sg), "", 0, "L", false, 0, "")
		pdf.SetXY(120, y+1)
		pdf.CellFormat(60, 5, "date", "", 1, "L", false, 0, "")
	}
}

func boardRows(boards []Board) [][]string {
	var rows [][]string
	for _, b := range boards {
		pts := strconv.Itoa(b.Points)
		if b.Demanded > 0 {
			pts = fmt.Sprintf("%d (+%d demanded)", b.Points, b.Demanded)
		}
		winner := b.Winner
		if winner == "" {
			winner = "—"
		}
		rows = append(rows, []string{strconv.Itoa(b.Board), winner, pts, b.How + " [" + b.Rule + "]", strconv.Itoa(b.Strokes)})
	}
	return rows
}

// strokeRows: one row per line of the log; note adds the umpire's note.
func strokeRows(sts []Stroke, note bool) [][]string {
	var rows [][]string
	for _, st := range sts {
		ev := st.Event
		if note && st.Note != "" {
			ev += " — " + st.Note
		}
		player := ""
		if st.Player != "" {
			player = fmt.Sprintf("%s (%s)", st.Player, st.Seat)
		}
		rows = append(rows, []string{strconv.Itoa(st.Board), lineNo(st.Line), player, ev, foulList(st.Fouls), decidedBy(st.By)})
	}
	return rows
}

func lineNo(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
