/* placeholder until the round state machine lands */
typedef int pb_table_placeholder;
