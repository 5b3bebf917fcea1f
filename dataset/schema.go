package dataset

import "github.com/apache/arrow-go/v18/arrow"

// File names inside a dataset directory.
const (
	PagesFile    = "pages.parquet"
	ManifestFile = "manifest.json"
)

// Column indexes of Schema, in order.
const (
	colPageID = iota
	colSource
	colTitle
	colNamespace
	colGroup
	colNUpdates
	colNCollapsed
	colFirst
	colLast
	colResolution
	colUpdates
	// colSourceID is last: datasets written before it have the columns
	// above only, and still read (with empty source ids). Its leaf index
	// is its index too, as updates, a list, has one leaf.
	colSourceID
)

// TimestampType is timestamp[s] in UTC, the type of every time column.
var TimestampType = &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}

// Schema is the Arrow schema of pages.parquet (SPEC §2).
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "page_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "source", Type: arrow.BinaryTypes.String},
	{Name: "title", Type: arrow.BinaryTypes.String},
	{Name: "namespace", Type: arrow.PrimitiveTypes.Int32},
	{Name: "group", Type: arrow.BinaryTypes.String},
	{Name: "n_updates", Type: arrow.PrimitiveTypes.Int64},
	{Name: "n_collapsed", Type: arrow.PrimitiveTypes.Int64},
	{Name: "first", Type: TimestampType},
	{Name: "last", Type: TimestampType},
	{Name: "resolution_s", Type: arrow.PrimitiveTypes.Int32},
	{Name: "updates", Type: arrow.ListOfNonNullable(TimestampType)},
	{Name: "source_id", Type: arrow.BinaryTypes.String},
}, nil)
