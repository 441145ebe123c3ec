# SPDX-License-Identifier: LGPL-2.1-or-later
"""Controls as attributes and as a mapping; events by iterator, selectors
and asyncio."""
import asyncio
import selectors

import pytest

import m2m


def test_controls_as_attributes_and_as_a_mapping(dev):
    dev.controls.rotate = 90
    assert dev.controls["Rotate"] == 90 and dev.controls["rotate"] == 90
    dev.controls["Horizontal Flip"] = True
    assert dev.controls.horizontal_flip is True
    assert "horizontal_flip" in dev.controls and "rotate" in list(dev.controls)
    assert dict(dev.controls)["rotate"] == 90


def test_menu_controls_take_and_give_item_names(dev):
    dev.controls.deinterlacing_mode = "motion adaptive"
    assert dev.controls.deinterlacing_mode == "Motion Adaptive"
    dev.controls.deinterlacing_mode = 0
    assert dev.controls.deinterlacing_mode == "Weave"
    info = dev.controls.info("deinterlacing_mode")
    assert info.type == "menu" and info.menu[2] == "Blend"


@pytest.mark.parametrize("name, value, error, problem", [
    ("rotate", 45, m2m.OutOfRange, "'rotate' takes 0 to 270 in steps of 90, not 45"),
    ("brightness", 1000, m2m.OutOfRange, "'brightness' takes -128 to 127, not 1000"),
    ("deinterlacing_mode", "sideways", m2m.OutOfRange, "no menu item 'sideways'"),
    ("deinterlacing_mode", 7, m2m.OutOfRange, "takes one of 'Weave'"),
    # Issue 14: contrast=True was 1, a flip took 1, a menu True.
    ("contrast", True, m2m.WrongType,
     r"control 'contrast' takes an integer, not True \(bool\)"),
    ("contrast", 1.5, m2m.WrongType, r"control 'contrast' takes an integer, not 1.5 \(float\)"),
    ("horizontal_flip", 1, m2m.WrongType,
     r"control 'horizontal_flip' takes True or False, not 1 \(int\)"),
    ("horizontal_flip", "yes", m2m.WrongType, "control 'horizontal_flip' takes True or False"),
    ("deinterlacing_mode", True, m2m.WrongType,
     "control 'deinterlacing_mode' takes an integer or a menu item name, not True"),
])
def test_values_a_control_does_not_take_raise_naming_what_it_takes(dev, name, value, error,
                                                                   problem):
    before = dev.controls[name]
    with pytest.raises(error, match=problem):
        dev.controls[name] = value
    assert dev.controls[name] == before


def test_wrong_types_and_unknown_controls_are_named(dev):
    with pytest.raises(TypeError, match="'rotate' takes an integer"):
        dev.controls.rotate = "ninety"
    with pytest.raises(m2m.UnknownControl, match="no control 'zoom'"):
        dev.controls["zoom"] = 2
    with pytest.raises(AttributeError, match="no control 'zoom'"):
        dev.controls.zoom


def test_events_arrive_through_get_and_the_iterator(dev):
    dev.events.subscribe("ctrl", "rotate", initial=True)
    ev = dev.events.get(timeout=2)
    assert ev.kind == "ctrl" and ev.control == "rotate" and ev.value == 0
    dev.controls.rotate = 180
    ev = next(iter(dev.events))
    assert (ev.kind, ev.control, ev.value) == ("ctrl", "rotate", 180)
    assert dev.events.get(timeout=0) is None


def test_events_work_with_selectors(dev):
    dev.events.subscribe("ctrl", "vertical_flip")
    sel = selectors.DefaultSelector()
    sel.register(dev.events, selectors.EVENT_READ)
    assert not dev.wait(0) & m2m.Ready.EVENT
    dev.controls.vertical_flip = True
    assert [key.fileobj for key, _ in sel.select(timeout=2)] == [dev.events]
    assert dev.wait(0) & m2m.Ready.EVENT
    assert dev.events.pending()[0].value is True


def test_events_work_as_an_async_iterator(dev):
    dev.events.subscribe("ctrl", "brightness")

    async def first_change():
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, dev.controls.__setitem__, "brightness", 12)
        async for ev in dev.events:
            return ev

    ev = asyncio.run(asyncio.wait_for(first_change(), 5))
    assert (ev.control, ev.value) == ("brightness", 12)


def test_frame_sync_and_eos_events_of_a_session(dev):
    import numpy as np
    dev.events.subscribe("frame_sync")
    dev.events.subscribe("eos")
    with dev.session("GREY", (64, 48)) as s:
        s.queue(np.zeros((48, 64), np.uint8))
        s.drain()
        s.release(s.dequeue(timeout=5))
        kinds = []
        while len(kinds) < 2:
            kinds.append(dev.events.get(timeout=5).kind)
    assert kinds == ["frame_sync", "eos"]
