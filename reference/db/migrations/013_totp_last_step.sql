-- The time step of the last two-factor code accepted for the account (reference/auth/totp-seeds.ts):
-- a code is accepted once, and never one of an earlier step (RFC 6238 §5.2). Written by a single
-- conditional update, so two requests presenting one code at the same moment cannot both pass.
alter table accounts add column totp_last_step bigint;
