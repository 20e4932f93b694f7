"""The login limiter (``docs/server.md``, "Accounts and sessions"): an attempt counts when it
starts, so concurrent guesses are not all checked, on SQLite and PostgreSQL and across
processes; guesses from other addresses never lock the owner out; the delay of one
account from one address grows; failures of other names never free a delayed pair;
claims and password changes are counted like logins; verifications at once are bounded,
those of one account across processes too (leases that a dead process cannot keep)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from konkun.server.accounts.accounts import (
    Account,
    AccountService,
    AccountStore,
    Passwords,
    skeleton_of,
)
from konkun.server.core.loginlimit import LoginLimiter, LoginRules, pair_key, running_key
from konkun.server.core.protocol import ProtocolError
from konkun.server.store.clusterlimits import LoginLog
from konkun.server.store.storage import Storage, now_text

from .postgres import PostgresServer

PASSWORD = "correct horse battery"
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


class CountedPasswords(Passwords):
    """Cheap argon2id hashes that count the verifications and take a while each, so that
    requests sent together overlap."""

    def __init__(self) -> None:
        super().__init__(CHEAP)
        self.verified = 0
        self.hashed = 0

    async def verify(self, password_hash: str | None, password: str) -> bool:
        self.verified += 1
        await asyncio.sleep(0.05)
        return await super().verify(password_hash, password)

    async def hash(self, password: str) -> str:
        self.hashed += 1
        return await super().hash(password)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def run_here(function: Any, *args: Any) -> Any:
    """Run a storage function on the event loop (the tests' storage thread)."""
    return function(*args)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'konkun.db'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database_url()


def service_on(storage: Storage, passwords: Passwords,
               limiter: LoginLimiter | None = None, shared: bool = False) -> AccountService:
    """An account service on ``storage``; its limiter shares the database's windows when
    the database is shared (several processes), or when ``shared`` (SQLite, as if two
    processes shared its file)."""
    limiter = limiter or LoginLimiter()
    if storage.shared or shared:
        limiter.shared = LoginLog(storage.engine, rules=limiter.rules)
    return AccountService(AccountStore(storage.engine), run_here, passwords, limiter)


async def claimed(service: AccountService, nickname: str) -> None:
    """An account ``nickname`` (player ``id-<nickname>``), stored directly."""
    account = Account(f"id-{nickname}", nickname, skeleton_of(nickname),
                      CHEAP.hash(PASSWORD), now_text())
    service.store.create(account, f"s-{nickname}", now_text())


async def outcome(attempt: Any) -> str:
    try:
        await attempt
    except ProtocolError as refused:
        return refused.code
    return "ok"


def test_twenty_concurrent_wrong_passwords_from_one_address_check_at_most_five(
        database_url: str) -> None:
    storage = Storage(database_url)
    try:
        passwords = CountedPasswords()
        service = service_on(storage, passwords)

        async def scenario() -> list[str]:
            await claimed(service, "Vera")
            passwords.verified = 0
            return await asyncio.gather(*(outcome(service.login("Vera", f"guess {n}",
                                                                "10.0.0.1"))
                                          for n in range(20)))

        answers = asyncio.run(scenario())
        assert passwords.verified <= 5
        assert answers.count("wrong_password") == passwords.verified
        assert answers.count("login_limited") == 20 - passwords.verified
    finally:
        storage.close()


def test_concurrent_guesses_through_two_processes_count_in_one_window(
        postgres: PostgresServer) -> None:
    url = postgres.new_database_url()
    storages = [Storage(url), Storage(url)]
    try:
        passwords = [CountedPasswords(), CountedPasswords()]
        services = [service_on(s, p) for s, p in zip(storages, passwords, strict=True)]

        async def scenario() -> list[str]:
            await claimed(services[0], "Dora")
            return await asyncio.gather(*(outcome(services[n % 2].login(
                "Dora", f"guess {n}", "10.0.0.1")) for n in range(20)))

        answers = asyncio.run(scenario())
        checked = sum(p.verified for p in passwords)
        assert checked <= 5, answers
        assert answers.count("login_limited") == 20 - checked
    finally:
        for storage in storages:
            storage.close()


def test_guesses_from_other_addresses_never_lock_the_owner_out(database_url: str) -> None:
    """Eight addresses guess Lena's password ten times each: five of each are checked, and
    Lena still logs in from her own. The clock stands still (a loaded machine once took
    longer than the two seconds' delay between an address's guesses, and more were
    checked)."""
    storage = Storage(database_url)
    try:
        service = service_on(storage, Passwords(CHEAP), LoginLimiter(clock=FakeClock()))

        async def scenario() -> tuple[list[str], str]:
            await claimed(service, "Lena")
            guesses = [await outcome(service.login("Lena", f"guess {n}", f"10.0.1.{n % 8}"))
                       for n in range(80)]
            owner = await outcome(service.login("Lena", PASSWORD, "192.0.2.7"))
            return guesses, owner

        guesses, owner = asyncio.run(scenario())
        assert guesses.count("wrong_password") == 40  # five per address
        assert owner == "ok"
    finally:
        storage.close()


def test_the_delay_of_one_account_from_one_address_doubles_and_a_success_clears_it() -> None:
    clock = FakeClock()
    limiter = LoginLimiter(5, 1000, 900.0, clock, first_delay=2.0)
    for _ in range(5):
        limiter.begin("vera", "10.0.0.1")
    waits = []
    for _ in range(4):
        with pytest.raises(ProtocolError) as refused:
            limiter.begin("vera", "10.0.0.1")
        assert refused.value.code == "login_limited"
        wait = next(s for s in range(1, 1000) if _allowed_after(limiter, clock, s))
        waits.append(wait)
        limiter.begin("vera", "10.0.0.1")
    assert waits == [2, 4, 8, 16]
    limiter.succeeded("vera", "10.0.0.1")
    limiter.begin("vera", "10.0.0.1")  # free again


def _allowed_after(limiter: LoginLimiter, clock: FakeClock, seconds: float) -> bool:
    """Whether an attempt would pass ``seconds`` from now (the clock is left there when
    it would)."""
    clock.now += seconds
    rules, now = limiter.rules, clock.now
    key = pair_key("vera", "10.0.0.1")
    times = [t for t in limiter._events.get(key, []) if now - t < rules.window]
    if rules.pair_wait(times, now) > 0:
        clock.now -= seconds
        return False
    return True


def test_failed_logins_of_ten_thousand_other_names_never_free_a_delayed_pair() -> None:
    clock = FakeClock()
    limiter = LoginLimiter(5, 20, 900.0, clock)
    for _ in range(5):
        limiter.begin("vera", "10.0.0.1")
    for number in range(10_000):
        limiter.begin(f"name{number}", f"10.{number // 200}.{number % 200}.1")
    with pytest.raises(ProtocolError) as refused:
        limiter.begin("vera", "10.0.0.1")
    assert refused.value.code == "login_limited"


def test_claims_are_counted_against_the_address_like_logins(database_url: str) -> None:
    storage = Storage(database_url)
    try:
        passwords = CountedPasswords()
        service = service_on(storage, passwords, LoginLimiter(5, 4, 900.0))

        async def scenario() -> list[str]:
            return [await outcome(service.claim(f"id{n}", f"s{n}", f"Player{n}", PASSWORD,
                                                "10.0.0.1", now_text())) for n in range(6)]

        assert asyncio.run(scenario()) == ["ok"] * 4 + ["login_limited"] * 2
        assert passwords.hashed == 4
    finally:
        storage.close()


def test_password_changes_are_counted_like_logins(database_url: str) -> None:
    storage = Storage(database_url)
    try:
        service = service_on(storage, Passwords(CHEAP))

        async def scenario() -> list[str]:
            await claimed(service, "Zoya")
            account = await service.account_of("id-Zoya")
            assert account is not None
            return [await outcome(service.change_password(account, f"guess {n}",
                                                          "a new secret", "10.0.0.1",
                                                          now_text()))
                    for n in range(7)]

        assert asyncio.run(scenario()) == ["wrong_password"] * 5 + ["login_limited"] * 2
    finally:
        storage.close()


def test_verifications_at_once_are_bounded_per_account_and_in_all() -> None:
    limiter = LoginLimiter(per_account_at_once=2, at_once=3)
    with limiter.running("a"), limiter.running("a"):
        with pytest.raises(ProtocolError), limiter.running("a"):
            pass
        with limiter.running("b"), pytest.raises(ProtocolError), limiter.running("c"):
            pass
    with limiter.running("a"), limiter.running("a"):
        pass  # all given back


class OverlapCounter:
    """How many verifications run at one time, across several processes' hashers."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0


class OverlappingPasswords(CountedPasswords):
    """Counted hashes whose verifications report to one :class:`OverlapCounter`."""

    def __init__(self, overlap: OverlapCounter) -> None:
        super().__init__()
        self.overlap = overlap

    async def verify(self, password_hash: str | None, password: str) -> bool:
        overlap = self.overlap
        overlap.running += 1
        overlap.most = max(overlap.most, overlap.running)
        try:
            await asyncio.sleep(0.2)
            return await super().verify(password_hash, password)
        finally:
            overlap.running -= 1


def test_verifications_of_one_account_at_once_are_bounded_across_two_processes(
        database_url: str) -> None:
    storages = [Storage(database_url), Storage(database_url)]  # two processes' connections
    try:
        overlap = OverlapCounter()
        services = [service_on(s, OverlappingPasswords(overlap), shared=True)
                    for s in storages]

        async def scenario() -> list[str]:
            await claimed(services[0], "Olga")
            for n in range(6):  # each address has tried the account: it is bounded now
                await outcome(services[n % 2].login("Olga", "first guess", f"10.0.2.{n}"))
            return await asyncio.gather(*(outcome(services[n % 2].login(
                "Olga", f"guess {n}", f"10.0.2.{n % 6}")) for n in range(12)))

        answers = asyncio.run(scenario())
        assert overlap.most == 2, answers  # the per-account bound of one process: 2 in all
        assert answers.count("login_limited") > 0
        assert answers.count("wrong_password") + answers.count("login_limited") == 12
        shared = services[0].limiter.shared
        assert isinstance(shared, LoginLog)
        assert shared.count(running_key(skeleton_of("Olga"))) == 0  # every lease given back
    finally:
        for storage in storages:
            storage.close()


def test_a_verification_lease_a_dead_process_kept_ends_after_the_lease_time(
        database_url: str) -> None:
    storage = Storage(database_url)
    try:
        clock = FakeClock()
        log = LoginLog(storage.engine, clock, LoginRules(per_account_at_once=2, lease=30.0))
        for account in ("olga", "ivan"):
            log.begin(account, "10.0.0.9")  # the address has tried both accounts

        def hold(account: str) -> int:
            lease = log.hold(account, "10.0.0.9")
            assert lease is not None
            return lease

        first = hold("olga")
        hold("olga")  # a process died holding this one: never released
        with pytest.raises(ProtocolError) as refused:
            hold("olga")
        assert refused.value.code == "login_limited"
        hold("ivan")  # other accounts are free
        log.release(first)
        log.release(hold("olga"))
        clock.now += 29.0
        hold("olga")
        with pytest.raises(ProtocolError):
            hold("olga")  # the dead process's lease still counts
        clock.now += 2.0
        hold("olga")  # 31 s after it was taken: it no longer does
    finally:
        storage.close()


def test_guesses_checked_at_once_from_other_addresses_never_refuse_the_owner(
        database_url: str) -> None:
    storages = [Storage(database_url), Storage(database_url)]  # two processes' connections
    try:
        overlap = OverlapCounter()
        services = [service_on(s, OverlappingPasswords(overlap), shared=True)
                    for s in storages]

        async def scenario() -> tuple[list[str], str]:
            await claimed(services[0], "Nina")
            for n in range(4):  # the guessing addresses have tried the account before
                await outcome(services[n % 2].login("Nina", "first guess", f"10.0.3.{n}"))
            guesses = [asyncio.create_task(outcome(services[n % 2].login(
                "Nina", f"guess {n}", f"10.0.3.{n}"))) for n in range(4)]
            await asyncio.sleep(0.05)  # the account's checks at once are all taken
            assert overlap.running >= 2
            owner = await outcome(services[0].login("Nina", PASSWORD, "192.0.2.7"))
            return await asyncio.gather(*guesses), owner

        guesses, owner = asyncio.run(scenario())
        assert "login_limited" in guesses  # the guessers are bounded ...
        assert owner == "ok"  # ... and the owner, who never tried from there, is not
    finally:
        for storage in storages:
            storage.close()
