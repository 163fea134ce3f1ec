// fs: write, read, readBytes (binary), list, stat, move and remove.
import { NotFoundError } from '@lizard-build/sdk'
import { randomBytes } from 'node:crypto'
import { check, compatClient, eq, rejects, scenario, withSandbox } from './lib.mjs'

const root = '/tmp/compat fs'            // a space: the path travels in a query string
const text = 'héllo wörld — ✓\nsecond line\n'

function checkEntry(entry, { name, path, type, size }) {
  eq([entry.name, entry.path, entry.type], [name, path, type], `entry ${path}: name, path, type`)
  if (size !== undefined) eq(entry.size, size, `entry ${path}: size`)
  check(typeof entry.size === 'number', `entry ${path}: size is a number`)
  for (const key of ['mode', 'modTime', 'modifiedAt']) {
    if (entry[key] !== undefined) check(typeof entry[key] === 'number', `entry ${path}: ${key} is a number`)
  }
  if (entry.modTime !== undefined) {
    check(Math.abs(entry.modTime - Date.now()) < 10 * 60000, `entry ${path}: modTime is unix milliseconds`)
  }
}

scenario('fs', async () => {
  const lizard = await compatClient()
  await withSandbox(lizard, {}, async sandbox => {
    const fs = sandbox.fs
    const textPath = `${root}/a/b/ünï.txt`
    await fs.write(textPath, text)
    console.log('ok - write creates missing parent directories')
    eq(await fs.read(textPath), text, 'read gives back the UTF-8 text')
    eq(Buffer.from(await fs.readBytes(textPath)), Buffer.from(text, 'utf8'), 'readBytes of a text file gives its UTF-8 bytes')
    eq((await sandbox.process.exec(['cat', textPath])).stdout, text, 'a command inside the sandbox sees the written file')

    // Binary: every byte value, then 2 MiB of random bytes, through Uint8Array and ArrayBuffer.
    const allBytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256)
    await fs.write(`${root}/bin/all.bin`, allBytes)
    const back = await fs.readBytes(`${root}/bin/all.bin`)
    check(back instanceof Uint8Array, 'readBytes answers a Uint8Array')
    eq(Buffer.from(back), Buffer.from(allBytes), 'every byte value round-trips exactly')
    const big = randomBytes(2 * 1024 * 1024)
    await fs.write(`${root}/bin/big.bin`, big.buffer.slice(big.byteOffset, big.byteOffset + big.byteLength))
    check(Buffer.from(await fs.readBytes(`${root}/bin/big.bin`)).equals(big), '2 MiB of random bytes round-trip (ArrayBuffer)')
    const five = new Uint8Array(randomBytes(5 * 1000 * 1000))
    await fs.write(`${root}/bin/five.bin`, five)
    const fiveBack = await fs.readBytes(`${root}/bin/five.bin`)
    eq(fiveBack.length, five.length, '5 MB binary: readBytes has the same length')
    check(Buffer.from(fiveBack).equals(Buffer.from(five)), '5 MB of random bytes round-trip with equal bytes (Uint8Array)')
    eq((await fs.stat(`${root}/bin/five.bin`)).size, five.length, '5 MB binary: stat gives its size')
    const sum = await sandbox.process.exec(['wc', '-c', `${root}/bin/big.bin`])
    eq(sum.stdout.trim().split(/\s+/)[0], String(big.length), 'the sandbox sees the exact binary size')

    await fs.write(`${root}/a/empty.txt`, '')
    eq(await fs.read(`${root}/a/empty.txt`), '', 'an empty file round-trips')
    await fs.write(`${root}/a/empty.txt`, 'replaced')
    eq(await fs.read(`${root}/a/empty.txt`), 'replaced', 'write replaces an existing file')

    await sandbox.process.exec(['ln', '-s', textPath, `${root}/a/link`])
    const listing = await fs.list(`${root}/a`)
    check(Array.isArray(listing), 'list answers an array')
    eq(listing.map(e => e.name).sort(), ['b', 'empty.txt', 'link'], 'list names the directory entries')
    checkEntry(listing.find(e => e.name === 'b'), { name: 'b', path: `${root}/a/b`, type: 'dir' })
    checkEntry(listing.find(e => e.name === 'empty.txt'), { name: 'empty.txt', path: `${root}/a/empty.txt`, type: 'file', size: 8 })
    checkEntry(listing.find(e => e.name === 'link'), { name: 'link', path: `${root}/a/link`, type: 'symlink' })

    const stat = await fs.stat(textPath)
    checkEntry(stat, { name: 'ünï.txt', path: textPath, type: 'file', size: Buffer.byteLength(text) })
    checkEntry(await fs.stat(`${root}/a/b`), { name: 'b', path: `${root}/a/b`, type: 'dir' })
    await rejects(fs.stat(`${root}/missing`), NotFoundError, 'stat of a missing path')
    await rejects(fs.read(`${root}/missing`), NotFoundError, 'read of a missing file')
    await rejects(fs.readBytes(`${root}/missing`), NotFoundError, 'readBytes of a missing file')
    await rejects(fs.list(`${root}/missing`), NotFoundError, 'list of a missing directory')

    // move: a file into new parents, then a whole directory.
    const moved = `${root}/moved/deep/renamed.txt`
    await fs.move(textPath, moved)
    eq(await fs.read(moved), text, 'move: the destination has the content (parents created)')
    await rejects(fs.stat(textPath), NotFoundError, 'move: the source is gone')
    await fs.move(`${root}/bin`, `${root}/bin2`)
    eq(Buffer.from(await fs.readBytes(`${root}/bin2/all.bin`)), Buffer.from(allBytes), 'move of a directory keeps its files')
    await rejects(fs.move(`${root}/missing`, `${root}/elsewhere`), NotFoundError, 'move of a missing path')

    // remove: a file, then a non-empty directory.
    await fs.remove(moved)
    await rejects(fs.stat(moved), NotFoundError, 'remove deletes a file')
    await fs.remove(`${root}/bin2`)
    await rejects(fs.stat(`${root}/bin2`), NotFoundError, 'remove deletes a non-empty directory')
    eq(await fs.read(`${root}/a/empty.txt`), 'replaced', 'remove leaves unrelated files alone')
  })
})
