<#
Patchwell worklet win-uninstall-program: evaluation.
Checks that no program whose display name matches $DisplayNamePattern (PowerShell -like
wildcards) is listed in Programs and Features, for 64-bit and 32-bit programs alike.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = pattern too broad.
#>
# Parameter: display name as Programs and Features shows it; * and ? are wildcards.
$DisplayNamePattern = 'Example Program*'

$check = {
    param([string]$DisplayNamePattern)
    if (($DisplayNamePattern -replace '[*?]', '').Trim().Length -lt 3) {
        Write-Output 'DisplayNamePattern needs at least 3 characters besides wildcards.'
        exit 2
    }
    $keys = @(
        'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\*',
        'HKLM:\SOFTWARE\WOW6432Node\Microsoft\Windows\CurrentVersion\Uninstall\*'
    )
    $found = @(Get-ItemProperty -Path $keys -ErrorAction SilentlyContinue |
        Where-Object { $_.DisplayName -like $DisplayNamePattern -and -not $_.SystemComponent })
    if ($found.Count -eq 0) {
        Write-Output "Compliant: no program matching '$DisplayNamePattern' is installed."
        exit 0
    }
    Write-Output "Installed: $(($found | ForEach-Object { "$($_.DisplayName) $($_.DisplayVersion)".Trim() }) -join ', ')."
    exit 1
}

# The 64-bit uninstall key is only visible to a 64-bit process.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check -args $DisplayNamePattern
    exit $LASTEXITCODE
}
& $check $DisplayNamePattern
