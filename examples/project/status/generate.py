#!/usr/bin/env python3
"""Writes the Orbit status data as portable SQL: data.sql in this folder, for the tables of the
hand-written schema.sql beside it (plain INSERTs with typed DATE/TIMESTAMP literals, so both load
unchanged on DuckDB and PostgreSQL).

Deterministic (fixed seed, standard library only): running it again writes the same bytes.
The facts it keeps to (people, components, sprints, schema) are listed in ../README.md.
Usage: python3 generate.py            # rewrites data.sql beside this script
"""
import datetime as dt
import hashlib
import os
import random

SEED = 20261125
SNAPSHOT = dt.datetime(2026, 11, 25, 9, 0, 0)  # the moment the data describes (Wednesday of sprint 14)
FIRST_SPRINT = dt.date(2026, 5, 25)
SPRINTS = 14

PEOPLE = [
    ("maya.chen", "Maya Chen", "engineering manager"),
    ("daniel.okafor", "Daniel Okafor", "tech lead"),
    ("priya.raman", "Priya Raman", "backend engineer"),
    ("lucas.moreau", "Lucas Moreau", "backend engineer"),
    ("sofia.alvarez", "Sofia Alvarez", "frontend engineer"),
    ("tomasz.nowak", "Tomasz Nowak", "site reliability engineer"),
    ("aiko.tanaka", "Aiko Tanaka", "QA engineer"),
    ("ben.carter", "Ben Carter", "data engineer"),
]

COMPONENTS = [
    ("web-dashboard", "Web Dashboard", "sofia.alvarez",
     "The customer-facing single-page app: invoices, payments, customers and reports."),
    ("api-gateway", "API Gateway", "lucas.moreau",
     "Public REST API and routing to internal services; rate limiting and request validation."),
    ("auth-service", "Auth Service", "lucas.moreau",
     "Login, SSO, API keys and role-based access for tenants."),
    ("billing-engine", "Billing Engine", "daniel.okafor",
     "Subscriptions, usage rating, proration, tax and the invoice lifecycle."),
    ("payments-connector", "Payments Connector", "priya.raman",
     "Card and bank payments through the external Stripe-like PSP; webhooks and reconciliation."),
    ("invoice-renderer", "Invoice Renderer", "ben.carter",
     "Turns finalized invoices into PDF and e-invoice (UBL) documents."),
    ("reporting-pipeline", "Reporting Pipeline", "ben.carter",
     "Nightly revenue, AR ageing and dunning reports from billing data."),
]

DEPENDENCIES = [
    ("web-dashboard", "api-gateway"),
    ("api-gateway", "auth-service"),
    ("api-gateway", "billing-engine"),
    ("billing-engine", "invoice-renderer"),
    ("billing-engine", "payments-connector"),
    ("reporting-pipeline", "billing-engine"),
]

GOALS = [
    "Subscription plans and first invoice run end to end",
    "Card payments through the PSP with webhook handling",
    "Tenant SSO login and API keys",
    "PDF invoices with tenant branding",
    "Usage-based rating for metered plans",
    "Dunning emails and retry schedule for failed payments",
    "Revenue and AR ageing reports in the dashboard",
    "Proration on plan changes and credit notes",
    "EU VAT handling and reverse charge",
    "SEPA direct debit and bank payment reconciliation",
    "E-invoicing (UBL) export for public-sector customers",
    "Performance: invoice run under 10 minutes for 50k subscriptions",
    "Customer portal self-service and audit log",
    "Multi-currency invoices and FX rates",
]

SUBJECTS = {
    "web-dashboard": ["invoice list", "customer page", "payment history table", "date picker",
                      "report charts", "plan editor", "settings page", "CSV export button",
                      "dark mode", "login form", "audit log view", "credit note dialog"],
    "api-gateway": ["rate limiter", "request validation", "pagination of /invoices", "webhook fan-out",
                    "OpenAPI spec", "idempotency keys", "error envelope", "CORS rules",
                    "versioned routes", "request tracing"],
    "auth-service": ["SSO callback", "API key rotation", "session expiry", "role checks",
                     "password reset", "SAML metadata", "token refresh", "tenant invitations"],
    "billing-engine": ["proration", "usage rating", "invoice finalization", "tax calculation",
                       "credit notes", "plan changes", "invoice run scheduler", "VAT reverse charge",
                       "FX conversion", "trial periods", "discount codes", "billing cycle anchors"],
    "payments-connector": ["PSP webhooks", "card retries", "SEPA mandates", "refunds",
                           "payment reconciliation", "3-D Secure flow", "payout reports",
                           "PSP idempotency", "bank transfer matching"],
    "invoice-renderer": ["PDF layout", "tenant branding", "UBL export", "line item grouping",
                         "currency formatting", "font embedding", "page breaks", "QR payment codes"],
    "reporting-pipeline": ["revenue report", "AR ageing", "dunning report", "nightly export",
                           "MRR snapshot", "churn metrics", "data warehouse load", "report scheduling"],
}

BUG_TEMPLATES = ["{s} fails for {edge}", "{s} shows wrong totals for {edge}", "Crash in {s} on {edge}",
                 "{s} times out under {edge}", "{s} ignores {edge}", "Wrong rounding in {s} for {edge}"]
EDGES = ["CHF amounts", "leap-day cycles", "zero-amount invoices", "tenants with 10k customers",
         "expired cards", "non-ASCII customer names", "DST change", "partial refunds",
         "multi-currency tenants", "annual plans", "empty line items", "concurrent updates"]
STORY_TEMPLATES = ["As a tenant admin I can manage {s}", "Support {s} for annual plans",
                   "Add {s} for multi-currency tenants", "Self-service {s} in the portal",
                   "Extend {s} with audit events", "Make {s} configurable per tenant"]
TASK_TEMPLATES = ["Refactor {s}", "Add integration tests for {s}", "Add metrics and alerts for {s}",
                  "Document {s}", "Upgrade dependencies of {s}", "Load-test {s}"]

# Who works on what: the owner most of the time, then others by role.
HELPERS = {
    "web-dashboard": ["sofia.alvarez", "aiko.tanaka", "lucas.moreau"],
    "api-gateway": ["lucas.moreau", "tomasz.nowak", "daniel.okafor"],
    "auth-service": ["lucas.moreau", "tomasz.nowak", "aiko.tanaka"],
    "billing-engine": ["daniel.okafor", "priya.raman", "aiko.tanaka"],
    "payments-connector": ["priya.raman", "tomasz.nowak", "daniel.okafor"],
    "invoice-renderer": ["ben.carter", "sofia.alvarez", "aiko.tanaka"],
    "reporting-pipeline": ["ben.carter", "daniel.okafor", "tomasz.nowak"],
}
REPORTERS = ["maya.chen", "aiko.tanaka", "daniel.okafor", "tomasz.nowak", "sofia.alvarez", "priya.raman"]


def sprint_dates(k):
    start = FIRST_SPRINT + dt.timedelta(days=14 * (k - 1))
    return start, start + dt.timedelta(days=13)


def at(day, rng, first_hour=9, last_hour=18):
    return dt.datetime.combine(day, dt.time(rng.randint(first_hour, last_hour - 1), rng.randrange(0, 60, 5)))


class Generator:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.issues = []        # dicts, in key order
        self.commitments = []   # (sprint_id, key)
        self.links = []         # (from, to, kind)
        self.commits = []

    # ---- issues ------------------------------------------------------------------------------
    def new_issue(self, kind, created, component=None, priority=None):
        rng = self.rng
        component = component or rng.choice([c[0] for c in COMPONENTS])
        subject = rng.choice(SUBJECTS[component])
        if kind == "bug":
            title = rng.choice(BUG_TEMPLATES).format(s=subject, edge=rng.choice(EDGES))
            priority = priority or rng.choices(["P1", "P2", "P3", "P4"], [5, 22, 45, 28])[0]
            points = rng.choice([1, 1, 2, 2, 3, 5])
        elif kind == "story":
            title = rng.choice(STORY_TEMPLATES).format(s=subject)
            priority = priority or rng.choices(["P2", "P3", "P4"], [35, 50, 15])[0]
            points = rng.choice([2, 3, 3, 5, 5, 8])
        else:
            title = rng.choice(TASK_TEMPLATES).format(s=subject)
            priority = priority or rng.choices(["P2", "P3", "P4"], [20, 55, 25])[0]
            points = rng.choice([1, 2, 2, 3])
        title = title[0].upper() + title[1:]
        helpers = HELPERS[component]
        assignee = rng.choices(helpers, [70, 20, 10])[0]
        issue = {
            "key": "ORB-%d" % (len(self.issues) + 1), "title": title, "type": kind, "priority": priority,
            "status": "open", "component_id": component, "assignee_id": assignee,
            "reporter_id": rng.choice(REPORTERS), "sprint_id": None, "story_points": points,
            "created_at": created, "resolved_at": None, "due_date": None,
        }
        self.issues.append(issue)
        return issue

    def random_kind(self):
        return self.rng.choices(["story", "task", "bug"], [40, 30, 30])[0]

    def resolve_in(self, issue, first_day, last_day):
        """Marks `issue` done at a time between first_day and last_day, after its creation."""
        rng = self.rng
        earliest = max(first_day, issue["created_at"].date())
        span = (last_day - earliest).days
        day = earliest + dt.timedelta(days=rng.randint(0, max(span, 0)))
        resolved = at(day, rng, 10, 19)
        if resolved <= issue["created_at"]:
            resolved = issue["created_at"] + dt.timedelta(hours=rng.randint(2, 8))
        issue["resolved_at"] = min(resolved, SNAPSHOT - dt.timedelta(minutes=30))
        issue["status"] = "done"

    def run(self):
        rng = self.rng
        carried = []  # issues not finished in the previous sprint
        for k in range(1, SPRINTS + 1):
            start, end = sprint_dates(k)
            active = k == SPRINTS
            committed = list(carried)
            carried = []
            for _ in range(rng.randint(14, 19)):
                created = at(start - dt.timedelta(days=rng.randint(1, 20)), rng)
                committed.append(self.new_issue(self.random_kind(), created))
            for issue in committed:
                issue["sprint_id"] = k
                self.commitments.append((k, issue["key"]))
                if issue["due_date"] is None and rng.random() < 0.45:
                    issue["due_date"] = end - dt.timedelta(days=rng.choice([0, 0, 2, 4]))
            # unplanned bugs found during the sprint, pulled in without a commitment
            added = []
            last_day = min(end, SNAPSHOT.date()) if active else end
            for _ in range(rng.randint(2, 5) if not active else 2):
                created = at(start + dt.timedelta(days=rng.randint(0, (last_day - start).days)), rng)
                if created >= SNAPSHOT:
                    created = SNAPSHOT - dt.timedelta(hours=rng.randint(3, 20))
                bug = self.new_issue("bug", created)
                bug["sprint_id"] = k
                if rng.random() < 0.5:
                    bug["due_date"] = created.date() + dt.timedelta(days=rng.choice([3, 5, 7]))
                added.append(bug)
            for issue in committed + added:
                if active:
                    self.settle_active(issue, start)
                    continue
                if rng.random() < (0.8 if issue in committed else 0.7):
                    self.resolve_in(issue, start, end)
                elif k < SPRINTS and rng.random() < 0.85:
                    issue["status"] = "in_progress" if rng.random() < 0.5 else "open"
                    carried.append(issue)
                else:
                    issue["sprint_id"] = None  # descoped back to the backlog
                    issue["status"] = "open"
            self.backlog_and_hotfixes(start, end, active)
        self.link_issues()
        self.write_commits()

    def settle_active(self, issue, start):
        """The active sprint at the snapshot: a few done, some in flight, the rest open."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.15:
            self.resolve_in(issue, start, SNAPSHOT.date() - dt.timedelta(days=1))
        elif roll < 0.5:
            issue["status"] = "in_progress"
        elif roll < 0.7:
            issue["status"] = "in_review"
        else:
            issue["status"] = "open"

    def backlog_and_hotfixes(self, start, end, active):
        rng = self.rng
        last = min(end, SNAPSHOT.date() - dt.timedelta(days=1))
        for _ in range(rng.randint(3, 6)):
            created = at(start + dt.timedelta(days=rng.randint(0, (last - start).days)), rng)
            kind = rng.choices(["bug", "story", "task"], [50, 30, 20])[0]
            issue = self.new_issue(kind, created)
            if rng.random() < 0.3:
                issue["story_points"] = None  # not estimated yet
            if rng.random() < 0.3:
                issue["due_date"] = created.date() + dt.timedelta(days=rng.choice([14, 21, 30, 45]))
        # a production incident fixed outside the sprint plan
        if not active and rng.random() < 0.7:
            created = at(start + dt.timedelta(days=rng.randint(0, 12)), rng)
            hotfix = self.new_issue("bug", created, priority=rng.choice(["P1", "P1", "P2"]))
            hotfix["title"] = "Incident: " + hotfix["title"]
            hotfix["assignee_id"] = rng.choice(["tomasz.nowak", hotfix["assignee_id"]])
            hotfix["due_date"] = created.date() + dt.timedelta(days=1)
            hotfix["resolved_at"] = created + dt.timedelta(hours=rng.randint(2, 30))
            hotfix["status"] = "done"

    # ---- links -------------------------------------------------------------------------------
    def link_issues(self):
        rng = self.rng
        by_component = {}
        for issue in self.issues:
            if issue["type"] != "bug":
                by_component.setdefault(issue["component_id"], []).append(issue)
        seen = set()

        def add(a, b, kind):
            if a["key"] != b["key"] and (a["key"], b["key"]) not in seen:
                seen.add((a["key"], b["key"]))
                self.links.append((a["key"], b["key"], kind))

        # blocks chains follow the dependency graph: work on a dependency blocks work that uses it,
        # e.g. invoice-renderer -> billing-engine -> api-gateway -> web-dashboard
        chains = [["invoice-renderer", "billing-engine", "api-gateway", "web-dashboard"],
                  ["payments-connector", "billing-engine", "api-gateway", "web-dashboard"],
                  ["billing-engine", "reporting-pipeline"],
                  ["auth-service", "api-gateway", "web-dashboard"]]
        for _ in range(16):
            chain = rng.choice(chains)
            anchor = rng.choice(by_component[chain[0]])
            previous = anchor
            for component in chain[1:]:
                later = [i for i in by_component[component] if i["created_at"] >= previous["created_at"]]
                if not later:
                    break
                successor = rng.choice(later[:12])
                add(previous, successor, "blocks")
                previous = successor
        everything = self.issues
        for _ in range(24):
            a, b = rng.sample(everything, 2)
            add(a, b, "relates_to")
        bugs = [i for i in everything if i["type"] == "bug"]
        for _ in range(8):
            a = rng.choice(bugs)
            b = rng.choice([i for i in bugs if i["component_id"] == a["component_id"] and i is not a])
            later, earlier = (a, b) if a["created_at"] > b["created_at"] else (b, a)
            add(later, earlier, "duplicates")

    # ---- commits -----------------------------------------------------------------------------
    def write_commits(self):
        rng = self.rng
        verbs = {"bug": ["Fix", "Guard against", "Handle"], "story": ["Add", "Implement", "Wire up"],
                 "task": ["Refactor", "Test", "Clean up"]}
        for issue in self.issues:
            if issue["status"] == "open":
                continue
            first = issue["created_at"]
            if issue["sprint_id"] is not None:
                first = max(first, dt.datetime.combine(sprint_dates(issue["sprint_id"])[0], dt.time(9)))
            last = issue["resolved_at"] or SNAPSHOT - dt.timedelta(hours=1)
            if last <= first:
                first = last - dt.timedelta(hours=1)
            count = {"done": rng.randint(1, 4), "in_review": rng.randint(1, 3), "in_progress": rng.randint(0, 2)}[
                issue["status"]]
            span = (last - first).total_seconds()
            for n in range(count):
                when = first + dt.timedelta(seconds=int(span * (n + 1) / (count + 1)))
                author = issue["assignee_id"] if rng.random() < 0.85 else rng.choice(HELPERS[issue["component_id"]])
                subject = issue["title"][0].lower() + issue["title"][1:]
                message = "%s: %s %s" % (issue["key"], rng.choice(verbs[issue["type"]]), subject)
                self.add_commit(author, issue["component_id"], issue["key"], message, when)
        chores = ["Bump dependencies", "Fix flaky test", "Update CI image", "Tidy logging",
                  "Format code", "Update README", "Raise test timeout", "Pin toolchain version"]
        day = FIRST_SPRINT
        while day < SNAPSHOT.date():
            if day.weekday() < 5 and rng.random() < 0.35:
                component = rng.choice([c[0] for c in COMPONENTS])
                author = rng.choice(HELPERS[component])
                self.add_commit(author, component, None, rng.choice(chores), at(day, rng))
            day += dt.timedelta(days=1)
        self.commits.sort(key=lambda c: (c["committed_at"], c["sha"]))

    def add_commit(self, author, component, key, message, when):
        rng = self.rng
        sha = hashlib.sha1(("%d|%s|%s|%s" % (len(self.commits), author, message, when)).encode()).hexdigest()
        self.commits.append({"sha": sha, "author_id": author, "component_id": component, "issue_key": key,
                             "message": message, "committed_at": when,
                             "additions": rng.randint(2, 400), "deletions": rng.randint(0, 180)})


# ---- SQL ---------------------------------------------------------------------------------------
def literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dt.datetime):
        return "TIMESTAMP '%s'" % value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, dt.date):
        return "DATE '%s'" % value.isoformat()
    return "'" + str(value).replace("'", "''") + "'"


def inserts(table, columns, rows, batch=50):
    out = []
    for i in range(0, len(rows), batch):
        values = ",\n".join("  (" + ", ".join(literal(v) for v in row) + ")" for row in rows[i:i + batch])
        out.append("INSERT INTO %s (%s) VALUES\n%s;\n" % (table, ", ".join(columns), values))
    return "".join(out)


def main():
    g = Generator()
    g.run()
    here = os.path.dirname(os.path.abspath(__file__))
    sprints = []
    for k in range(1, SPRINTS + 1):
        start, end = sprint_dates(k)
        sprints.append((k, "Sprint %d" % k, start, end, "active" if k == SPRINTS else "closed", GOALS[k - 1]))
    issue_columns = ["key", "title", "type", "priority", "status", "component_id", "assignee_id", "reporter_id",
                     "sprint_id", "story_points", "created_at", "resolved_at", "due_date"]
    commit_columns = ["sha", "author_id", "component_id", "issue_key", "message", "committed_at", "additions",
                      "deletions"]
    data = ["-- Orbit status data as of %s UTC. Written by generate.py (seed %d); do not edit by hand.\n"
            % (SNAPSHOT.strftime("%Y-%m-%d %H:%M"), SEED)]
    data.append(inserts("people", ["id", "name", "role"], PEOPLE))
    data.append(inserts("components", ["id", "name", "owner_id", "description"], COMPONENTS))
    data.append(inserts("component_dependencies", ["component_id", "depends_on_id"], DEPENDENCIES))
    data.append(inserts("sprints", ["id", "name", "start_date", "end_date", "state", "goal"], sprints))
    data.append(inserts("issues", issue_columns, [[i[c] for c in issue_columns] for i in g.issues]))
    data.append(inserts("issue_links", ["from_key", "to_key", "kind"], g.links))
    data.append(inserts("sprint_commitments", ["sprint_id", "issue_key"], g.commitments))
    data.append(inserts("commits", commit_columns, [[c[k] for k in commit_columns] for c in g.commits]))
    with open(os.path.join(here, "data.sql"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(data))
    print("issues %d, commitments %d, links %d, commits %d" % (len(g.issues), len(g.commitments), len(g.links),
                                                             len(g.commits)))


if __name__ == "__main__":
    main()
