/*
 * audit.h - the audit subsystem of the table layer, for its callers outside
 * it (http, the CLI, main): one include for all of its parts.  Inside the
 * table layer each file includes the part it uses.
 *
 *   table/replay.h   a round rebuilt from its events; the engine's view of a round
 *   table/verify.h   verifying a round and the whole record (audit_integrity)
 *   table/chain.h    chain walks, checkpoints
 *   table/hold.h     the integrity hold and its acknowledgement
 *   table/startup.h  the start-up check and its background walk
 */
#ifndef PB_TABLE_AUDIT_H
#define PB_TABLE_AUDIT_H

#include "table/audit/chain.h"
#include "table/audit/hold.h"
#include "table/rounds/replay.h"
#include "table/ops/startup.h"
#include "table/audit/verify.h"

#endif
