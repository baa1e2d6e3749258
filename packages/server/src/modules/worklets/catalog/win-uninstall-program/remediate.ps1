<#
Patchwell worklet win-uninstall-program: remediation.
Uninstalls every program whose display name matches $DisplayNamePattern, silently and
without restarting: Windows Installer products with 'msiexec /x {code} /qn /norestart',
others with the QuietUninstallString their vendor registered. A program with neither has
no silent uninstaller and is reported, not touched.
Exit 0 = none left, 1 = some remain, 2 = pattern too broad.
#>
# Parameter: display name as Programs and Features shows it; * and ? are wildcards.
$DisplayNamePattern = 'Example Program*'

$fix = {
    param([string]$DisplayNamePattern)
    if (($DisplayNamePattern -replace '[*?]', '').Trim().Length -lt 3) {
        Write-Output 'DisplayNamePattern needs at least 3 characters besides wildcards.'
        exit 2
    }
    $keys = @(
        'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\*',
        'HKLM:\SOFTWARE\WOW6432Node\Microsoft\Windows\CurrentVersion\Uninstall\*'
    )
    $programs = @(Get-ItemProperty -Path $keys -ErrorAction SilentlyContinue |
        Where-Object { $_.DisplayName -like $DisplayNamePattern -and -not $_.SystemComponent })
    $notes = @()
    foreach ($program in $programs) {
        if ($program.WindowsInstaller -eq 1 -and $program.PSChildName -match '^\{[0-9A-Fa-f\-]{36}\}$') {
            $process = Start-Process -FilePath "$env:SystemRoot\System32\msiexec.exe" -ArgumentList "/x $($program.PSChildName) /qn /norestart" -Wait -PassThru
            # 1605: already gone; 3010: removed, restart needed to finish.
            if (@(0, 1605, 3010) -notcontains $process.ExitCode) {
                $notes += "$($program.DisplayName): msiexec exit $($process.ExitCode)"
            }
        } elseif ($program.QuietUninstallString) {
            $process = Start-Process -FilePath "$env:SystemRoot\System32\cmd.exe" -ArgumentList "/c `"$($program.QuietUninstallString)`"" -Wait -PassThru -WindowStyle Hidden
            if ($process.ExitCode -ne 0 -and $process.ExitCode -ne 3010) {
                $notes += "$($program.DisplayName): uninstaller exit $($process.ExitCode)"
            }
        } else {
            $notes += "$($program.DisplayName): no silent uninstaller registered"
        }
    }
    $left = @(Get-ItemProperty -Path $keys -ErrorAction SilentlyContinue |
        Where-Object { $_.DisplayName -like $DisplayNamePattern -and -not $_.SystemComponent })
    if ($left.Count -eq 0) {
        Write-Output "Remediated: $($programs.Count) program(s) matching '$DisplayNamePattern' uninstalled."
        exit 0
    }
    Write-Output "Failed: $($left.Count) program(s) remain. $($notes -join '; ')"
    exit 1
}

# The 64-bit uninstall key is only visible to a 64-bit process.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $DisplayNamePattern
    exit $LASTEXITCODE
}
& $fix $DisplayNamePattern
