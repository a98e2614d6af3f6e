-- The TOTP time step of the last two-factor code accepted for the account: a code is accepted
-- once (RFC 6238 §5.2), so a code of that step or an earlier one is refused. Null until a first
-- code is accepted.
alter table accounts add column totp_last_step bigint;
