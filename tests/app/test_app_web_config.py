"""The `[web]` and `[mqtt]` sections of the config: defaults, and mistakes named with the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import ConfigError, MqttConfig, WebConfig, config_from_mapping


def test_the_web_page_is_on_by_default_on_this_machine_only_and_mqtt_off() -> None:
    config = config_from_mapping({}, None)
    assert config.web == WebConfig(enabled=True, host="127.0.0.1", port=8080)
    assert config.mqtt is None


def test_both_sections_are_read() -> None:
    config = config_from_mapping({
        "web": {"enabled": False, "host": "127.0.0.1", "port": 9000},
        "mqtt": {"host": "broker.lan", "port": 8883, "tls": True, "user": "t", "password": "p",
                 "table": "table-2"},
    }, None)
    assert config.web == WebConfig(enabled=False, host="127.0.0.1", port=9000)
    assert config.mqtt == MqttConfig("broker.lan", 8883, True, "t", "p", "table-2")
    assert config_from_mapping({"mqtt": {"host": "b", "enabled": False}}, None).mqtt is None


@pytest.mark.parametrize(("data", "named"), [
    ({"web": {"port": 0}}, "[web] port = 0: expected a port"),
    ({"web": {"port": 70000}}, "[web] port = 70000"),
    ({"web": {"port": "80"}}, "[web] port = '80'"),
    ({"web": {"port": True}}, "[web] port = True"),
    ({"web": {"enabled": "yes"}}, "[web] enabled = 'yes': expected true or false"),
    ({"web": {"host": ""}}, "[web] host = ''"),
    ({"web": {"pin": 1234}}, "[web] pin: a number, not text"),
    ({"web": {"pin": "123"}}, "[web] pin: 3 digits: expected 4 to 12 digits in quotes"),
    ({"web": {"pin": "1234567890123"}}, "[web] pin: 13 digits"),
    ({"web": {"pin": "12a4"}}, "[web] pin: not only the digits 0 to 9"),
    ({"web": {"pin": "１２３４"}}, "[web] pin: not only the digits 0 to 9"),
    ({"web": {"pin": True}}, "[web] pin: a bool, not text"),
    ({"web": {"pin": ""}}, "[web] pin: empty"),
    ({"web": {"code": "1234"}}, "[web] unknown key 'code'"),
    ({"web": {"public_url": "javascript:alert(1)"}},
     "[web] public_url = 'javascript:alert(1)': not an http:// or https:// address"),
    ({"web": {"public_url": "ftp://table.lan/"}}, "not an http:// or https:// address"),
    ({"web": {"public_url": 'http://t.lan/"><script>'}}, "a quote, < or >"),
    ({"web": {"public_url": "http://table .lan/"}}, "holds a space"),
    ({"web": {"public_url": "http://t.lan/" + "a" * 200}}, "213 characters, more than 200"),
    ({"web": {"public_url": "http://t.lan:99999/"}}, "its port is not a number"),
    ({"web": {"public_url": "http:///page"}}, "names no host"),
    ({"web": {"public_url": "http://bad_name/"}}, "not a DNS name"),
    ({"web": {"public_url": ""}}, "[web] public_url = '': empty"),
    ({"web": {"public_url": 8080}}, "[web] public_url = 8080: expected text"),
    ({"web": {"hosts": "scores.club.example"}}, "[web] hosts = scores.club.example: expected a "
                                                 "list of at most 32 DNS names"),
    ({"web": {"hosts": ["ok.example", "bad name"]}}, "[web] hosts: 'bad name': not a DNS name"),
    ({"web": {"hosts": ["*.club.example"]}}, "[web] hosts: '*.club.example': not a DNS name"),
    ({"web": {"hosts": ["192.168.1.20"]}}, "[web] hosts: '192.168.1.20': an address, not a name"),
    ({"web": {"hosts": [7]}}, "[web] hosts: 7: expected text"),
    ({"web": {"hosts": ["a.example"] * 33}}, "at most 32 DNS names"),
    ({"mqtt": {"port": 1883}}, "[mqtt] host is missing"),
    ({"mqtt": {"host": 5}}, "[mqtt] host = 5: expected text"),
    ({"mqtt": {"host": "b", "table": "Table 1"}}, "[mqtt] table = 'Table 1'"),
    ({"mqtt": {"host": "b", "table": "a/b"}}, "[mqtt] table = 'a/b'"),
    ({"mqtt": {"host": "b", "tls": 1}}, "[mqtt] tls = 1"),
    ({"mqtt": {"host": "b", "password": "p"}}, "[mqtt] password without user"),
    ({"mqtt": {"host": "b", "qos": 2}}, "[mqtt] unknown key 'qos'"),
])
def test_a_wrong_value_is_named(data: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_mapping(data, None)
    assert named in str(caught.value)


def test_a_pin_is_read_and_never_shown() -> None:
    config = config_from_mapping({"web": {"pin": "0815"}}, None)
    assert config.web.pin == "0815" and config_from_mapping({}, None).web.pin is None
    assert "0815" not in repr(config)
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"web": {"pin": "08x15"}}, None)
    assert "08x15" not in str(caught.value)


@pytest.mark.parametrize("command", ["web", "run"])
def test_a_bad_pin_stops_the_page_and_the_table_with_exit_2(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    config = tmp_path / "table.toml"
    config.write_text('[web]\npin = "12"\n')
    assert main([command, "--config", str(config), "--state-dir", str(tmp_path / "s")]) == 2
    error = capsys.readouterr().err
    assert f"{config}: [web] pin: 2 digits: expected 4 to 12 digits" in error
    assert "Traceback" not in error
    assert not (tmp_path / "s").exists()


def test_the_page_s_address_and_names_are_read() -> None:
    config = config_from_mapping({"web": {
        "public_url": "https://Tables.Club.Example:8443/t1?x=1#live",
        "hosts": ["Scores.Club.Example.", "cardtable"]}}, None)
    assert config.web.public_url == "https://Tables.Club.Example:8443/t1?x=1#live"
    assert config.web.hosts == ("scores.club.example", "cardtable")
    assert config.web.allowed_names == ("scores.club.example", "cardtable", "tables.club.example")
    assert config_from_mapping({}, None).web.allowed_names == ()
    at_address = config_from_mapping({"web": {"public_url": "http://[fd00::7]:8080/"}}, None)
    assert at_address.web.public_url == "http://[fd00::7]:8080/"


def test_a_password_in_the_page_s_address_is_refused_and_never_shown() -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"web": {"public_url": "http://ann:hunter2@t.lan/"}}, None)
    assert "[web] public_url: holds a user name or password" in str(caught.value)
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(("lines", "named"), [
    ('public_url = "javascript:alert(1)"', "[web] public_url = 'javascript:alert(1)'"),
    ('hosts = ["not a name"]', "[web] hosts: 'not a name': not a DNS name"),
])
@pytest.mark.parametrize("command", ["web", "run"])
def test_a_bad_address_or_name_stops_the_page_and_the_table_with_exit_2(
    tmp_path: Path, command: str, lines: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    config = tmp_path / "table.toml"
    config.write_text(f"[web]\n{lines}\n")
    assert main([command, "--config", str(config), "--state-dir", str(tmp_path / "s")]) == 2
    error = capsys.readouterr().err
    assert f"{config}: {named}" in error and "Traceback" not in error
    assert not (tmp_path / "s").exists()
