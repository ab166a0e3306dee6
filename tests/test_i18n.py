"""The language machinery (`rules.i18n`) and every package's French catalog.

The catalog tests are the translation's acceptance: every message the sources mark is in the French
catalog, translated (not fuzzy, not empty, every plural form), with the same placeholders as the English,
and the compiled `.mo` the app reads says the same as the `.po`.
"""

from __future__ import annotations

import gettext
import re
import threading

import pytest
from babel.messages.pofile import read_po

import printables.locale
import rules.locale
import scorer.locale
from rules import i18n
from rules.i18n import (
    DOMAINS,
    LanguageError,
    current_language,
    extract_messages,
    language_from_environment,
    language_from_tag,
    use_language,
)

FRENCH = [d for d in DOMAINS.values() if d.name in ("rules", "printables", "scorer")]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def test_every_package_has_a_domain():
    assert {rules.locale.DOMAIN.name, printables.locale.DOMAIN.name, scorer.locale.DOMAIN.name} <= set(DOMAINS)


@pytest.mark.parametrize("tag, lang", [
    ("fr-FR", "fr"), ("fr-CA", "fr"), ("fr_BE.UTF-8", "fr"), ("fr", "fr"), ("FR-ch", "fr"),
    ("en-US", "en"), ("de-DE", "en"), ("", "en"), (None, "en"), ("C.UTF-8", "en"), ("frr-DE", "en"),
])
def test_a_locale_tag_gives_the_language_tourpad_speaks(tag, lang):
    assert language_from_tag(tag) == lang


def test_the_environment_is_read_as_gettext_reads_it():
    assert language_from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert language_from_environment({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert language_from_environment({"LANGUAGE": "fr:en", "LC_ALL": "C"}) == "fr"
    assert language_from_environment({}) == "en"


def test_use_language_is_local_to_its_block_and_thread():
    seen = {}
    with use_language("fr"):
        assert current_language() == "fr"
        worker = threading.Thread(target=lambda: seen.setdefault("other", current_language()))
        worker.start()
        worker.join()
    assert seen["other"] == "en"
    assert current_language() == "en"


def test_an_installed_source_decides_unless_a_block_chose(monkeypatch):
    monkeypatch.setattr(i18n, "_source", None)
    i18n.set_language_source(lambda: "fr")
    try:
        assert current_language() == "fr"
        with use_language("en"):
            assert current_language() == "en"
        i18n.set_language_source(lambda: None)  # no opinion: the default
        assert current_language() == "en"
        i18n.set_language_source(lambda: 1 / 0)  # asked outside its context: the default, no traceback
        assert current_language() == "en"
    finally:
        i18n.set_language_source(None)


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(LanguageError, match=r"'de'.*en \(English\), fr \(Français\)"), use_language("de"):
        pass


def test_numbers_and_dates_follow_the_language():
    import datetime as dt

    assert i18n.format_number(1234.5) == "1,234.5"
    assert i18n.format_date(dt.date(2026, 11, 24)) == "24 Nov 2026"
    with use_language("fr"):
        assert i18n.format_number(1234.5) == "1\u202f234,5"
        assert i18n.format_date(dt.date(2026, 11, 24)) == "24 nov. 2026"


def _catalog(domain):
    with domain.po_file("fr").open("rb") as f:
        return read_po(f, locale="fr", domain=domain.name)


@pytest.mark.parametrize("domain", FRENCH, ids=lambda d: d.name)
def test_every_marked_message_is_translated_into_french(domain):
    catalog = _catalog(domain)
    missing, untranslated, fuzzy, placeholders = [], [], [], []
    for (msgid, context), ids in extract_messages(domain).items():
        entry = catalog.get(msgid, context=context)
        if entry is None:
            missing.append(msgid)
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy:
            fuzzy.append(msgid)
        if not all(strings):
            untranslated.append(msgid)
            continue
        english = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for french in strings:
            # a singular form may leave out the count ("une carte"), never invent a placeholder
            found = set(PLACEHOLDER.findall(french))
            if found - english or (len(strings) == 1 and found != english) or \
                    (french is strings[-1] and found != set(PLACEHOLDER.findall(ids[-1]))):
                placeholders.append(f"{msgid!r} → {french!r}")
    assert not missing, f"{domain.name}: not in {domain.po_file('fr')} (run `make catalogs`): {missing}"
    assert not fuzzy, f"{domain.name}: fuzzy French entries: {fuzzy}"
    assert not untranslated, f"{domain.name}: empty French entries: {untranslated}"
    assert not placeholders, f"{domain.name}: placeholders differ from the English: {placeholders}"


@pytest.mark.parametrize("domain", FRENCH, ids=lambda d: d.name)
def test_the_catalog_holds_no_message_the_sources_dropped(domain):
    marked = set(extract_messages(domain))
    stale = [m.id for m in _catalog(domain) if m.id and ((m.id if isinstance(m.id, str) else m.id[0]),
                                                         m.context) not in marked]
    assert not stale, f"{domain.name}: run `make catalogs` to drop {stale}"


@pytest.mark.parametrize("domain", FRENCH, ids=lambda d: d.name)
def test_the_compiled_catalog_says_what_the_po_says(domain):
    mo = domain.mo_file("fr")
    assert mo.exists(), f"{mo} is not built: `make catalogs` (the install builds it)"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in _catalog(domain):
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            for n, index in ((1, 0), (2, 1)):
                got = (compiled.npgettext(message.context, *message.id, n) if message.context
                       else compiled.ngettext(*message.id, n))
                assert got == message.string[index], f"{mo} is stale: `make catalogs`"
        else:
            got = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert got == message.string, f"{mo} is stale for {message.id!r}: `make catalogs`"


def _usa_document() -> dict:
    import tomllib
    from pathlib import Path

    return tomllib.loads((Path(rules.__file__).parent / "editions" / "usa.toml").read_text(encoding="utf-8"))


def test_edition_data_names_things_per_language_and_keeps_the_english_key():
    import tomli_w

    from rules.editions import edition_from_text

    doc = _usa_document()
    doc["names"] = {"fr": "Boomerang : USA (essai)"}
    doc["regions"][0]["names"] = {"fr": "Nord-Ouest (essai)"}
    doc["cards"][0]["site_names"] = {"fr": "Seattle (essai)"}
    doc["site_nouns"] = {"fr": ["bourg", "bourgs"]}
    doc["pairs"]["icons"][0]["names"] = {"fr": "Truite (essai)"}
    edition = edition_from_text(tomli_w.dumps(doc))
    english = (edition.label, edition.regions[0].label, edition.cards[0].site_label, edition.site_noun_label(True))
    assert english == (edition.name, edition.regions[0].name, edition.cards[0].site, edition.sites_noun)
    with use_language("fr"):
        assert (edition.label, edition.regions[0].label, edition.cards[0].site_label,
                edition.site_noun_label(), edition.site_noun_label(True), edition.pairs.icons[0].label) == (
            "Boomerang : USA (essai)", "Nord-Ouest (essai)", "Seattle (essai)", "bourg", "bourgs", "Truite (essai)")
        assert edition.regions[0].name == "Pacific Northwest"  # the key rules and records use


@pytest.mark.parametrize("names, problem", [
    ({"de": "Forelle"}, "names.de.*does not speak 'de'"),
    ({"en": "Trout"}, "names.en.*English is the name itself"),
    ({"fr": ""}, "names.fr.*at least 1 character"),
])
def test_a_translation_in_a_language_tourpad_does_not_speak_is_refused_by_field(names, problem):
    import tomli_w

    from rules.editions import edition_from_text
    from rules.model import EditionDataError

    doc = _usa_document()
    doc["names"] = names
    with pytest.raises(EditionDataError, match=problem):
        edition_from_text(tomli_w.dumps(doc))


def test_a_catalog_compiles_to_the_same_bytes_at_any_time(monkeypatch):
    """The site's wheel holds the compiled catalogs: a .mo stamped with the minute it was compiled made every
    `tourpad publish` a new wheel, which every phone then downloads again (issue #39)."""
    import datetime as real_datetime

    import babel.messages.catalog

    from rules.i18n import compiled_catalog

    po = FRENCH[0].po_file("fr")
    first = compiled_catalog(po)

    class Later(real_datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return real_datetime.datetime(2031, 5, 6, 7, 8, tzinfo=tz)

    monkeypatch.setattr(babel.messages.catalog.datetime, "datetime", Later)
    assert compiled_catalog(po) == first


def test_make_catalogs_adds_new_messages_drops_gone_ones_and_keeps_translations(tmp_path, monkeypatch):
    """`make catalogs` is Babel's extract and update (`rules.i18n.update_catalogs`): a new message comes in
    untranslated, a gone one leaves, a translation stays; a missing language's catalog is started; the
    files carry no date, so running it again changes nothing."""
    monkeypatch.setattr(i18n, "DOMAINS", {})
    package = tmp_path / "toy"
    (package / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (package / "words.py").write_text('_("Hello")\nN_("Bye {name}")\nngettext("{n} card", "{n} cards", n)\n')
    domain = i18n.Domain("toy", package / "locale")
    domain.po_file("fr").write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);'
                                    '\\n"\n\nmsgid "Hello"\nmsgstr "Bonjour"\n\nmsgid "Gone"\nmsgstr "Parti"\n',
                                    encoding="utf-8")
    written = i18n.update_catalogs(domain, ["fr", "de"])
    assert written == [domain.po_file("fr"), domain.po_file("de")]
    with domain.po_file("fr").open("rb") as f:
        french = read_po(f)
    assert french["Hello"].string == "Bonjour" and "Gone" not in french
    assert french["Bye {name}"].string == "" and "python-brace-format" in french["Bye {name}"].flags
    assert french["{n} card"].id == ("{n} card", "{n} cards")
    assert domain.po_file("de").exists()
    text = domain.po_file("fr").read_text(encoding="utf-8")
    assert text.startswith("# The words of tourpad's `toy` package in language `fr`")
    assert "Creation-Date" not in text and "Revision-Date" not in text and "#:" not in text
    i18n.update_catalogs(domain, ["fr", "de"])
    assert domain.po_file("fr").read_text(encoding="utf-8") == text
