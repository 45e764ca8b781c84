"""Small files written whole: a reader sees the old content or the new, never half or an error."""

from __future__ import annotations

import threading

import pytest

from pica.kernel.files import write_atomically


def test_threads_of_one_process_may_write_the_same_file_at_once(tmp_path):
    # A server opens the store from a watcher thread and a request thread at the same moment; each
    # writes layout.json. With one temporary name per process the second rename found nothing.
    target = tmp_path / "layout.json"
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def write(n: int) -> None:
        start.wait()
        try:
            for _ in range(200):
                write_atomically(target, f'{{"layout": {n}}}')
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_text() in {f'{{"layout": {n}}}' for n in range(8)}
    assert [p.name for p in tmp_path.iterdir()] == ["layout.json"]  # no temporary file left


def test_a_failed_write_leaves_the_old_content_and_no_temporary_file(tmp_path):
    target = tmp_path / "state.json"
    write_atomically(target, "old")

    with pytest.raises(TypeError):
        write_atomically(target, 42)  # type: ignore[arg-type] - not text: the write fails
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]
