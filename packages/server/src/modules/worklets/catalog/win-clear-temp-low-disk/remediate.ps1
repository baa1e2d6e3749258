<#
Patchwell worklet win-clear-temp-low-disk: remediation.
Frees space on the system drive with safe cleanups: deletes files older than $MinAgeDays
days from the Windows temp folder and each user's AppData\Local\Temp, empties the
Windows Update download cache (with the Windows Update service stopped for the moment,
it downloads again what it still needs) and empties the recycle bin of that drive. Files
in use are skipped. Then measures again.
Exit 0 = at least $MinFreePercent free afterwards, 1 = still low, 2 = cannot be checked.
#>
# Parameters: the least free space allowed, in percent, and the age of temp files to delete.
$MinFreePercent = '10'
$MinAgeDays = '7'

$fix = {
    param([string]$MinFreePercent, [string]$MinAgeDays)
    $drive = $env:SystemDrive
    $filter = "DeviceID='$drive'"
    $before = (Get-CimInstance -ClassName Win32_LogicalDisk -Filter $filter).FreeSpace
    if ($null -eq $before) {
        Write-Output "Cannot read the size of $drive."
        exit 2
    }
    $cutoff = (Get-Date).AddDays(-[int]$MinAgeDays)

    $folders = @("$env:SystemRoot\Temp")
    $folders += @(Get-ChildItem -Path "$drive\Users" -Directory -Force -ErrorAction SilentlyContinue |
        ForEach-Object { Join-Path $_.FullName 'AppData\Local\Temp' } | Where-Object { Test-Path -LiteralPath $_ })
    foreach ($folder in $folders) {
        Get-ChildItem -LiteralPath $folder -File -Recurse -Force -ErrorAction SilentlyContinue |
            Where-Object { $_.LastWriteTime -lt $cutoff } |
            Remove-Item -Force -ErrorAction SilentlyContinue
    }

    $download = "$env:SystemRoot\SoftwareDistribution\Download"
    if (Test-Path -LiteralPath $download) {
        $wasRunning = (Get-Service -Name wuauserv -ErrorAction SilentlyContinue).Status -eq 'Running'
        Stop-Service -Name wuauserv -Force -ErrorAction SilentlyContinue
        Get-ChildItem -LiteralPath $download -Force -ErrorAction SilentlyContinue | Remove-Item -Recurse -Force -ErrorAction SilentlyContinue
        if ($wasRunning) {
            Start-Service -Name wuauserv -ErrorAction SilentlyContinue
        }
    }
    Clear-RecycleBin -DriveLetter $drive.TrimEnd(':') -Force -ErrorAction SilentlyContinue

    $disk = Get-CimInstance -ClassName Win32_LogicalDisk -Filter $filter
    $freedMb = [math]::Round(($disk.FreeSpace - $before) / 1MB)
    $free = [math]::Round(100 * $disk.FreeSpace / $disk.Size, 1)
    if ($free -ge [double]$MinFreePercent) {
        Write-Output "Remediated: freed $freedMb MB; $drive has $free% free."
        exit 0
    }
    Write-Output "Failed: freed $freedMb MB but $drive still has only $free% free; it needs a person to look."
    exit 1
}

# Use the 64-bit PowerShell, so System32 paths are the real ones under a 32-bit agent session.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $MinFreePercent, $MinAgeDays
    exit $LASTEXITCODE
}
& $fix $MinFreePercent $MinAgeDays
