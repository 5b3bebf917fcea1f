package mwhistory

// The columns of the dumps, in file order, by snapshot schema. The files
// have no header: the number of columns on a line tells the schema.
//
// Source: Wikitech, "Data Platform/Data Lake/Edits/MediaWiki history dumps"
// (https://wikitech.wikimedia.org/wiki/Data_Platform/Data_Lake/Edits/MediaWiki_history_dumps)
// and "Analytics/Data Lake/Edits/MediaWiki history" (the Hive table
// wmf.mediawiki_history the dumps are exported from; the dumps leave out
// its page_artificial_id and snapshot columns).
var (
	// Schema70 is the schema of the snapshots before temporary accounts
	// (2020 to 2024).
	Schema70 = []string{
		"wiki_db", "event_entity", "event_type", "event_timestamp", "event_comment",
		"event_user_id", "event_user_text_historical", "event_user_text",
		"event_user_blocks_historical", "event_user_blocks", "event_user_groups_historical", "event_user_groups",
		"event_user_is_bot_by_historical", "event_user_is_bot_by",
		"event_user_is_created_by_self", "event_user_is_created_by_system", "event_user_is_created_by_peer",
		"event_user_is_anonymous", "event_user_registration_timestamp", "event_user_creation_timestamp",
		"event_user_first_edit_timestamp", "event_user_revision_count", "event_user_seconds_since_previous_revision",
		"page_id", "page_title_historical", "page_title", "page_namespace_historical",
		"page_namespace_is_content_historical", "page_namespace", "page_namespace_is_content",
		"page_is_redirect", "page_is_deleted", "page_creation_timestamp", "page_first_edit_timestamp",
		"page_revision_count", "page_seconds_since_previous_revision",
		"user_id", "user_text_historical", "user_text", "user_blocks_historical", "user_blocks",
		"user_groups_historical", "user_groups", "user_is_bot_by_historical", "user_is_bot_by",
		"user_is_created_by_self", "user_is_created_by_system", "user_is_created_by_peer", "user_is_anonymous",
		"user_registration_timestamp", "user_creation_timestamp", "user_first_edit_timestamp",
		"revision_id", "revision_parent_id", "revision_minor_edit", "revision_deleted_parts",
		"revision_deleted_parts_are_suppressed", "revision_text_bytes", "revision_text_bytes_diff",
		"revision_text_sha1", "revision_content_model", "revision_content_format",
		"revision_is_deleted_by_page_deletion", "revision_deleted_by_page_deletion_timestamp",
		"revision_is_identity_reverted", "revision_first_identity_reverting_revision_id",
		"revision_seconds_to_identity_revert", "revision_is_identity_revert",
		"revision_is_from_before_page_creation", "revision_tags",
	}
	// Schema76 is the current schema: Schema70 with the central user ids
	// and the temporary-account flags (event_user_central_id,
	// event_user_is_temporary, event_user_is_permanent and the same three
	// for user_), each right after the column named here.
	Schema76 = insertAfter(Schema70, map[string][]string{
		"event_user_id":           {"event_user_central_id"},
		"event_user_is_anonymous": {"event_user_is_temporary", "event_user_is_permanent"},
		"user_id":                 {"user_central_id"},
		"user_is_anonymous":       {"user_is_temporary", "user_is_permanent"},
	})
)

// insertAfter is schema with the columns of after[c] inserted right after
// each column c.
func insertAfter(schema []string, after map[string][]string) []string {
	var out []string
	for _, c := range schema {
		out = append(append(out, c), after[c]...)
	}
	return out
}

// columns are the positions of the fields the reader uses in one schema.
type columns struct {
	n                                   int
	entity, typ, timestamp, wiki        int
	userText, userIsBotBy, userIsAnon   int
	userTextNow, userIsBotByNow         int
	pageID, pageTitle, pageNS, redirect int
	minor, reverted, revert             int
}

func schemaColumns(schema []string) columns {
	at := map[string]int{}
	for i, c := range schema {
		at[c] = i
	}
	return columns{n: len(schema),
		wiki: at["wiki_db"], entity: at["event_entity"], typ: at["event_type"], timestamp: at["event_timestamp"],
		userText: at["event_user_text_historical"], userIsBotBy: at["event_user_is_bot_by_historical"], userIsAnon: at["event_user_is_anonymous"],
		userTextNow: at["event_user_text"], userIsBotByNow: at["event_user_is_bot_by"],
		pageID: at["page_id"], pageTitle: at["page_title"], pageNS: at["page_namespace"], redirect: at["page_is_redirect"],
		minor: at["revision_minor_edit"], reverted: at["revision_is_identity_reverted"], revert: at["revision_is_identity_revert"],
	}
}

var schemas = map[int]columns{70: schemaColumns(Schema70), 76: schemaColumns(Schema76)}
