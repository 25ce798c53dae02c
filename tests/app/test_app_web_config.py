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
