-- Written by hand (drizzle cannot express triggers): every node keeps the signed-in sessions,
-- the profiles and the zones' device counts it has read in memory (modules/auth/auth-cache.ts),
-- and these triggers tell every node, through NOTIFY on `patchwell_cache`, when what it keeps
-- changed, whoever made the change. Payloads: `u:<user id>` (that user's sessions and profile),
-- `*` (zone, account, flag and SSO settings: every entry) and `z:<zone id>` (the zone's device
-- count). PostgreSQL delivers a notification when its transaction commits, so nothing is
-- dropped before the change is visible; identical payloads of one transaction arrive once.
CREATE OR REPLACE FUNCTION patchwell_cache_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('patchwell_cache', 'u:' || OLD.user_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('patchwell_cache', 'u:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- `users` has no user_id column: its own id.
CREATE OR REPLACE FUNCTION patchwell_cache_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('patchwell_cache', 'u:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION patchwell_cache_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('patchwell_cache', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION patchwell_cache_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('patchwell_cache', 'z:' || OLD.organization_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('patchwell_cache', 'z:' || NEW.organization_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A session's last-seen touch (once a minute) changes nothing a node keeps: only its end does.
CREATE TRIGGER sessions_cache AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION patchwell_cache_user_changed();--> statement-breakpoint
CREATE TRIGGER users_cache AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION patchwell_cache_users_changed();--> statement-breakpoint
CREATE TRIGGER user_zone_roles_cache AFTER INSERT OR UPDATE OR DELETE ON user_zone_roles
  FOR EACH ROW EXECUTE FUNCTION patchwell_cache_user_changed();--> statement-breakpoint
CREATE TRIGGER user_prefs_cache AFTER INSERT OR UPDATE OR DELETE ON user_prefs
  FOR EACH ROW EXECUTE FUNCTION patchwell_cache_user_changed();--> statement-breakpoint
CREATE TRIGGER organizations_cache AFTER INSERT OR UPDATE OR DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
CREATE TRIGGER accounts_cache AFTER UPDATE OR DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
CREATE TRIGGER feature_flags_cache AFTER INSERT OR UPDATE OR DELETE ON feature_flags
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
CREATE TRIGGER saml_connections_cache AFTER INSERT OR UPDATE OR DELETE ON saml_connections
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
CREATE TRIGGER saml_user_links_cache AFTER INSERT OR UPDATE OR DELETE ON saml_user_links
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
CREATE TRIGGER account_domains_cache AFTER INSERT OR UPDATE OR DELETE ON account_domains
  FOR EACH STATEMENT EXECUTE FUNCTION patchwell_cache_all_changed();--> statement-breakpoint
-- Only what moves a device into or out of a zone's live count; check-ins and inventories
-- (which leave both columns out of their SET lists) fire nothing.
CREATE TRIGGER devices_count_insert_cache AFTER INSERT OR DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION patchwell_cache_devices_changed();--> statement-breakpoint
CREATE TRIGGER devices_count_update_cache AFTER UPDATE OF removed_at, organization_id ON devices
  FOR EACH ROW WHEN (OLD.removed_at IS DISTINCT FROM NEW.removed_at OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION patchwell_cache_devices_changed();
