"""Run in ``manage.py shell`` on commit 73d076a, on a freshly migrated database: a cup, a
free-deal night and a duplicate event whose results were entered through that code's real
paths (the phone pages, the REST API, the director's pages and services), with corrections
by the tables and by the director."""
import random

from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import setup_test_environment

setup_test_environment()  # the test client's host

from tests.builders import random_outcome, running_event
from tests.factories import OrganiserFactory, RunningFreeDealFactory
from tests.teammatch.worlds import feasible, form_data, other, running_match
from tournaments import services as tournament_services
from tournaments.models import Table, TableResult
from tournaments.services import results


def ok(response, *codes):
    assert response.status_code in codes, (response.status_code, response.content[:600])
    return response


def director(user):
    client = Client()
    client.force_login(user)
    return client


# A team-match cup: the rooms' phones (page and API) and the director's page.
running = running_match(deals_per_quarter=3)
get_user_model().objects.filter(pk=running.organiser.pk).update(username="arbitre.coupe")
running.organiser.refresh_from_db()
cup_director = director(running.organiser)
phone = Client()
room = {name: f"/cups/room/{r.code}/" for name, r in running.rooms.items()}
api_room = {name: f"/api/v1/cups/rooms/{r.code}/" for name, r in running.rooms.items()}
o1 = feasible(running.deal(1), "garde", 50)
ok(phone.post(room["open"] + "deals/1/", form_data(1, o1)), 302)
ok(phone.post(room["open"] + "deals/1/correct/", form_data(1, other(o1))), 302)
ok(Client().post(api_room["closed"] + "results/", {"deal": 1, "outcome": o1},
                 content_type="application/json"), 201)
o2 = feasible(running.deal(2), "garde_sans", 60)
ok(Client().post(api_room["closed"] + "results/", {"deal": 2, "outcome": o2},
                 content_type="application/json"), 201)
ok(Client().post(api_room["closed"] + "results/correct/", {"deal": 2, "outcome": other(o2)},
                 content_type="application/json"), 200, 201)
match_url = f"/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/deals/"


def director_form(outcome, reason):
    return {"contract": outcome["contract"], "oudlers": outcome["oudlers"],
            "points": outcome["points"], "reason": reason}


ok(cup_director.post(match_url + "2/open/", director_form(o2, "téléphone perdu")), 302)
o3 = feasible(running.deal(3), "garde", 40)
ok(phone.post(room["closed"] + "deals/3/", form_data(3, o3)), 302)
ok(cup_director.post(match_url + "3/closed/", director_form(other(o3), "feuille de marque")), 302)
ok(phone.post(room["open"] + "deals/3/", form_data(3, o3)), 302)

# A free-deal night: the table's phone (page and API) and the director's page.
night = RunningFreeDealFactory(parties=2, name="Donnes libres du jeudi")
table = night.tables.get()
seated = night.table_players(1, 1)
fd_director = OrganiserFactory(clubs=[night.club], username="arbitre.donnes")
fd_client = director(fd_director)
page = f"/free-deal/table/{table.code}/deal/"


def fd_form(deal, taker, points="46", contract="garde"):
    fields = {"contract": contract, "taker": taker, "oudlers": "2", "points": points}
    return {"party": 1, **{f"d{deal}-{k}": v for k, v in fields.items()}}


ok(phone.post(page + "1/", fd_form(1, seated[0])), 302)
ok(phone.post(page + "1/correct/", fd_form(1, seated[0], points="52")), 302)
api_table = f"/api/v1/free-deal/tables/{table.code}/"
garde = {"contract": "garde", "taker": seated[1], "oudlers": 2, "points": 46}
ok(Client().post(api_table + "results/", {"deal": 2, "outcome": garde},
                 content_type="application/json"), 201)
ok(Client().post(api_table + "results/2/correct/",
                 {"outcome": {**garde, "points": 41}}, content_type="application/json"), 200, 201)
correct = f"/organiser/free-deal/{night.pk}/correct/1/1/"
ok(fd_client.post(correct + "3/", {"contract": "garde_sans", "taker": seated[2], "oudlers": "1",
                                   "points": "48", "reason": "table partie trop tôt"}), 302)
ok(phone.post(page + "4/", fd_form(4, seated[3])), 302)
ok(fd_client.post(correct + "4/", {"contract": "garde", "taker": seated[3], "oudlers": "2",
                                   "points": "36", "reason": "points mal comptés"}), 302)

# A duplicate event: the table's phone, the API (table code and organiser), the director.
event = running_event(tables=3, rounds=2, deals_per_round=2, seed=3)
td = OrganiserFactory(clubs=[event.club], username="arbitre.simultane")
tables = {t.number: t for t in Table.objects.filter(event=event)}
rng = random.Random(32)
deals = {}
for play in event.schedule.round(1).tables:
    deals[play.table] = list(event.deals.filter(deal_set=play.deal_set).order_by("number"))
t1, t2 = tables[1], tables[2]
d1, d2 = deals[1]
out = random_outcome(rng, d1)
ok(Client().post(f"/api/v1/tables/{t1.code}/results/", {"deal": d1.number, "outcome": out},
                 content_type="application/json"), 201)
ok(Client().post(f"/api/v1/tables/{t1.code}/results/", {"deal": d2.number,
                 "outcome": random_outcome(rng, d2)}, content_type="application/json"), 201)
e1, e2 = deals[2]
api_td = director(td)
ok(api_td.post(f"/api/v1/events/{event.pk}/results/", {"deal": e1.number, "table": 2,
               "outcome": random_outcome(rng, e1)}, content_type="application/json"), 201)
tournament_services.table_result_submit(table=t2, deal=e2, outcome=random_outcome(rng, e2),
                                        actor=td, via="organiser")
first = TableResult.objects.get(table=t1, deal=d1)
results.table_result_table_correct(result=first, outcome=random_outcome(rng, d1),
                                               via="api")
second = TableResult.objects.get(table=t1, deal=d2)
tournament_services.table_result_correct(result=second, outcome=random_outcome(rng, d2),
                                         actor=td, reason="erreur de saisie")
print("built", TableResult.objects.count())

# Table 3's phone page: an entry, then its own correction.
f1 = deals[3][0]


def plain_form(deal):
    for _ in range(200):
        chosen = random_outcome(rng, deal)
        if not chosen.get("poignees") and not (chosen.get("chelem") or {}).get("announced") \
                and not chosen.get("petit_au_bout"):
            values = {"contract": chosen["contract"], "oudlers": str(chosen["oudlers"]),
                      "points": str(chosen["points"]), "petit_au_bout": ""}
            return {f"d{deal.number}-{k}": v for k, v in values.items()}
    raise AssertionError("no plain outcome")


t3 = f"/table/{tables[3].code}/deal/{f1.number}/"
ok(phone.post(t3, {**plain_form(f1), "round": "1"}), 302)
ok(phone.post(t3 + "correct/", {**plain_form(f1), "round": "1"}), 302)
print("phone", TableResult.objects.count())
