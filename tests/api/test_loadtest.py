"""`bluegray loadtest` against the test server: bots play through the websocket (their commands
chosen by the brain processes) while spectators watch; every figure is filled and nothing fails.
With ``choices`` the bots play as the web client does: from the server's choices, asking the server
for the reach of each unit they draw to move."""

from api.app_keys import ACCOUNTS
from bench.loadtest import Run, run


async def test_a_short_load_test_plays_and_measures(client):
    url = str(client.server.make_url("")).rstrip("/")
    for choices in (False, True):  # commands chosen from the bot's own fold, then from the server's choices
        figures = await run(Run(url=url, games=2, spectators=2, duration=3.0, think=0.05, choices=choices))
        assert not figures.errors, figures.errors
        assert (
            figures.games_started >= 2
            and len(figures.command_ms) > 0
            and figures.events >= len(figures.command_ms)
        )
        assert figures.broadcast_ms and figures.brain_cpu_s is not None
        assert len(figures.reach_ms) == figures.reaches and figures.empty_reaches <= figures.reaches
        if choices:  # every unit drawn to move was asked about; each reply came back, not all empty
            assert figures.reaches > 0 and figures.empty_reaches < figures.reaches
        else:
            assert figures.reaches == 0


async def test_a_load_test_of_players_with_accounts_plays_by_their_sessions(client):
    """--accounts: two signed-in players a game, the game from a seek, each seat by its cookie."""
    url = str(client.server.make_url("")).rstrip("/")
    config = Run(url=url, games=2, spectators=0, duration=2.0, think=0.05, choices=False, accounts=True)
    figures = await run(config)
    assert not figures.errors, figures.errors
    assert figures.games_started >= 2 and len(figures.command_ms) > 0
    for slot in range(2):
        for seat in "uc":
            account, _ = await client.app[ACCOUNTS].find(f"lt{config.tag}{slot:04d}{seat}")
            assert account is not None
            ids, _ = await client.app[ACCOUNTS].games(account.id, 0, 10)
            assert ids  # the game is his: started from the lobby, his seat bound to him
