/*
 * sql/chain.h - the column lists of the chain's statements (chain.def),
 * also read by the verify walks of other domains.
 */
#ifndef PB_STORE_SQL_CHAIN_H
#define PB_STORE_SQL_CHAIN_H

/* The columns of an event row as audit.c reads them (read_event). */
#define EVENT_COLUMNS "table_id, table_seq, coalesce(round_id, 0), type, at, actor, body, prev_hash, hash, id"

/* The columns of a checkpoint row as audit.c reads them (read_checkpoint). */
#define CHECKPOINT_COLUMNS "id, table_id, table_seq, head_hash, at, public_key, signature"

#endif
