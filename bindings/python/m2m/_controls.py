# SPDX-License-Identifier: LGPL-2.1-or-later
"""Controls: a device's V4L2 controls as attributes and as a mapping."""
from __future__ import annotations

from typing import Union

import functools
import re
from collections.abc import MutableMapping

from . import _args, capi
from ._errors import NotFound, NotSupported, OutOfRange, UnknownControl

_TYPES = {
    capi.M2M_CONTROL_INTEGER: "integer", capi.M2M_CONTROL_BOOLEAN: "boolean",
    capi.M2M_CONTROL_MENU: "menu", capi.M2M_CONTROL_BUTTON: "button",
    capi.M2M_CONTROL_INTEGER64: "integer64", capi.M2M_CONTROL_BITMASK: "bitmask",
    capi.M2M_CONTROL_INTEGER_MENU: "integer_menu",
}


@functools.lru_cache(maxsize=256)
def identifier(name):
    """A control or menu item name as a Python identifier, as libm2m
    matches it: lower case, every run of other characters one underscore
    ("Horizontal Flip" -> "horizontal_flip")."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class Control:
    """What a control takes: its kind, range, step, default and menu.

    Attributes: ``name`` (the driver's, "Rotate"), ``key`` (as an
    identifier, "rotate"), ``id``, ``type`` ("integer", "boolean", "menu",
    ...), ``minimum``, ``maximum``, ``step``, ``default`` (as the control
    gives and takes values: a bool, a menu item's name, an integer), and
    ``menu``: for menu controls a dict of item index to name (integer
    menus: to value).

    Example::

        >>> dev.controls.info("rotate")
        <m2m.Control rotate: integer 0..270 step 90, default 0>
        >>> dev.controls.info("deinterlacing_mode").menu
        {0: 'Weave', 1: 'Bob', 2: 'Blend', 3: 'Motion Adaptive'}
    """

    def __init__(self, info, menu):
        self.id = info.id
        self.name = info.name
        self.key = identifier(info.name)
        self.type = _TYPES.get(info.type, str(info.type))
        self.minimum = info.minimum
        self.maximum = info.maximum
        self.step = info.step
        self.flags = info.flags
        self.menu = menu
        self.default = self.from_value(info.default_value)

    def _range(self):
        if self.menu:
            return "one of " + ", ".join(repr(v) for v in self.menu.values())
        step = f" in steps of {self.step}" if self.step > 1 else ""
        return f"{self.minimum} to {self.maximum}{step}"

    def to_value(self, value: Union[bool, int, str]) -> int:
        """The integer to set for a Python value, checked against the
        control's type, range, step and menu: a boolean control takes True
        or False (not 0 or 1), a menu an item's name (any case) or its
        index, the others integers (not bools or floats). Raises
        :class:`OutOfRange` or :class:`WrongType` naming the control and
        what it takes.

        Example::

            >>> dev.controls.info("deinterlacing_mode").to_value("blend")
            2
        """
        argument = f"control {self.key!r}"
        if self.type == "boolean":
            return int(_args.boolean(value, argument))
        if self.type == "menu" and isinstance(value, str):
            for index, item in self.menu.items():
                if identifier(item) == identifier(value):
                    return index
            raise OutOfRange(34, f"control {self.key!r} has no menu item {value!r}: "
                             f"it takes {self._range()}")
        if not _args.is_integer(value):
            raise _args.wrong_type(argument, "an integer" + (" or a menu item name"
                                                             if self.menu else ""), value)
        value = int(value)
        ok = self.minimum <= value <= self.maximum
        if ok and self.step > 1:
            ok = (value - self.minimum) % self.step == 0
        if ok and self.menu:
            ok = value in self.menu
        if not ok:
            raise OutOfRange(34, f"control {self.key!r} takes {self._range()}, not {value!r}")
        return value

    def from_value(self, value: int) -> Union[bool, int, str]:
        """The Python value of a raw control value: bool for booleans, the
        item name for menus, else the integer.

        Example::

            >>> dev.controls.info("deinterlacing_mode").from_value(2)
            'Blend'
        """
        if self.type == "boolean":
            return bool(value)
        if self.type == "menu":
            return self.menu.get(value, value)
        return value

    def __repr__(self):
        return (f"<m2m.Control {self.key}: {self.type} {self.minimum}..{self.maximum}"
                f"{f' step {self.step}' if self.step > 1 else ''}, default {self.default}>")


class Controls(MutableMapping):
    """A device's controls, as attributes and as a mapping.

    Keys are the driver's names in any case ("Horizontal Flip") or as
    identifiers ("horizontal_flip"); attributes are the identifiers.
    Values are checked against each control's range, step and menu before
    they are set (:class:`OutOfRange`, naming the range); menu controls
    take and give their items' names. Iterating gives the identifiers.

    Example::

        dev.controls.rotate = 90
        dev.controls["Horizontal Flip"] = True
        dev.controls.deinterlacing_mode = "blend"
        print(dict(dev.controls))
    """

    def __init__(self, device):
        object.__setattr__(self, "_device", device)
        object.__setattr__(self, "_by_key", None)

    def _load(self):
        """Every control's description by key, read once."""
        by_key = self._by_key
        if by_key is None:
            with self._device._lock:
                by_key = self._by_key or self._read()
                object.__setattr__(self, "_by_key", by_key)
        return by_key

    def _read(self):
        h = self._device._h()
        by_key = {}
        for i in range(capi.m2m_control_count(h.ptr)):
            info = capi.m2m_control_at(h.ptr, i)
            menu = {}
            if info.type in (capi.M2M_CONTROL_MENU, capi.M2M_CONTROL_INTEGER_MENU):
                for index in range(info.minimum, info.maximum + 1):
                    try:
                        item = capi.m2m_get_menu_item(h.ptr, info.id, index)
                    except NotFound:
                        continue
                    menu[index] = item.name if info.type == capi.M2M_CONTROL_MENU \
                        else item.value
            control = Control(info, menu)
            by_key[control.key] = control
        return by_key

    def info(self, name: Union[str, int]) -> Control:
        """The :class:`Control` describing a control, by name or id.

        Example::

            >>> dev.controls.info("Rotate").maximum
            270
        """
        controls = self._load()
        if _args.is_integer(name):
            for c in controls.values():
                if c.id == name:
                    return c
        elif isinstance(name, str):
            if identifier(name) in controls:
                return controls[identifier(name)]
        else:
            raise _args.wrong_type("a control", "its name or its id (an integer)", name)
        raise UnknownControl(2, f"{self._device.driver} has no control {name!r} "
                             f"(it has: {', '.join(controls)})")

    def __getitem__(self, name):
        c = self.info(name)
        # Between calls of other threads: not a value a conversion set for
        # itself (rotate, flips) while it ran.
        with self._device._lock:
            return c.from_value(capi.m2m_get_control(self._device._h().ptr, c.id))

    def __setitem__(self, name, value):
        c = self.info(name)
        raw = c.to_value(value)
        device = self._device
        with device._lock:
            h = device._h()
            device._before_control(c)
            capi.m2m_set_control(h.ptr, c.id, raw)

    def __delitem__(self, name):
        raise NotSupported(95, "controls cannot be deleted; set the default: "
                           "dev.controls.reset(), or dev.controls[name] = "
                           "dev.controls.info(name).default")

    def __iter__(self):
        return iter(self._load())

    def __len__(self):
        return len(self._load())

    def __contains__(self, name):
        return (isinstance(name, str) and identifier(name) in self._load()) or \
            (_args.is_integer(name) and any(c.id == name for c in self._load().values()))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except UnknownControl as e:
            raise AttributeError(str(e)) from None

    def __setattr__(self, name, value):
        try:
            self[name] = value
        except UnknownControl as e:
            raise AttributeError(str(e)) from None

    def __dir__(self):
        return list(self._load()) + ["info"]

    def reset(self) -> None:
        """Set every writable control to its default.

        Example::

            dev.controls.reset()
        """
        for c in self._load().values():
            if c.type != "button" and not c.flags & 0x0004:   # V4L2_CTRL_FLAG_READ_ONLY
                self[c.key] = c.default

    def __repr__(self):
        try:
            values = ", ".join(f"{k}={self[k]!r}" for k in self._load())
        except Exception:   # a closed device: no values to show
            values = "closed"
        return f"<m2m.Controls {values}>"
